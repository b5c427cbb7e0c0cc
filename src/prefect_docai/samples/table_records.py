"""Tables of records: rows of dates, names, states, places and short phrases, few numbers.

The table generator (``samples.tables``) drew a label column and number columns almost
only, so every table its models were fitted on had a column of figures; the tables they
then missed on pages they had not seen were the text-only ones: schedules, registers,
agendas, contact and parameter lists, unruled more often than not. ``record(rng, lang,
max_cols)`` draws one such table: a first column that names the row (a date, a time, a
reference, a person, a task or a parameter), then up to five more columns drawn from the
column kinds below in any order, at most one of them a count or an amount; a header row or
none; now and then section rows that group the records. All wording is in the generator's
five languages and all variety comes from ``rng``.

The columns come back as ``(kind, align)``: ``text`` wraps in a narrow column, ``field``
never wraps (a date, a phone number, a state) and keeps its alignment, ``num`` is a count or
an amount set right or centred.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

Column = tuple[str, str]  # kind (text | field | num), align (l | c | r)


@dataclass
class Record:
    columns: list[Column]
    header: list[str] | None
    body: list[list[str]]
    kinds: list[str]  # data | section


# --- wording ---------------------------------------------------------------------------

_HEADS: dict[str, dict[str, tuple[str, ...]]] = {
    "date": {
        "en": ("Date", "Due", "Due date", "Deadline", "Start", "Delivered", "Received"),
        "de": ("Datum", "Termin", "Fällig am", "Beginn", "Eingang", "Frist"),
        "fr": ("Date", "Échéance", "Début", "Reçu le", "Livré le"),
        "es": ("Fecha", "Vencimiento", "Inicio", "Recibido", "Plazo"),
        "nl": ("Datum", "Deadline", "Start", "Ontvangen", "Termijn"),
    },
    "time": {
        "en": ("Time", "From", "Slot", "Hour"),
        "de": ("Zeit", "Uhrzeit", "Von", "Beginn"),
        "fr": ("Heure", "Horaire", "De"),
        "es": ("Hora", "Horario", "Desde"),
        "nl": ("Tijd", "Tijdstip", "Van"),
    },
    "person": {
        "en": ("Owner", "Lead", "Responsible", "Contact", "Name", "Assigned to", "Speaker"),
        "de": ("Verantwortlich", "Leitung", "Ansprechpartner", "Name", "Zuständig", "Referent"),
        "fr": ("Responsable", "Pilote", "Contact", "Nom", "Intervenant", "Attribué à"),
        "es": ("Responsable", "Contacto", "Nombre", "Ponente", "Asignado a"),
        "nl": ("Eigenaar", "Verantwoordelijke", "Contactpersoon", "Naam", "Spreker"),
    },
    "status": {
        "en": ("Status", "State", "Progress", "Result"),
        "de": ("Status", "Stand", "Ergebnis", "Fortschritt"),
        "fr": ("Statut", "État", "Avancement", "Résultat"),
        "es": ("Estado", "Situación", "Avance", "Resultado"),
        "nl": ("Status", "Stand", "Voortgang", "Resultaat"),
    },
    "item": {
        "en": ("Task", "Item", "Topic", "Milestone", "Activity", "Subject", "Deliverable"),
        "de": ("Aufgabe", "Punkt", "Thema", "Meilenstein", "Tätigkeit", "Gegenstand"),
        "fr": ("Tâche", "Point", "Sujet", "Jalon", "Activité", "Objet", "Livrable"),
        "es": ("Tarea", "Punto", "Tema", "Hito", "Actividad", "Asunto", "Entregable"),
        "nl": ("Taak", "Punt", "Onderwerp", "Mijlpaal", "Activiteit", "Product"),
    },
    "place": {
        "en": ("Room", "Location", "Place", "Site", "Venue"),
        "de": ("Raum", "Ort", "Standort", "Saal"),
        "fr": ("Salle", "Lieu", "Site", "Local"),
        "es": ("Sala", "Lugar", "Sede", "Ubicación"),
        "nl": ("Zaal", "Locatie", "Plaats", "Vestiging"),
    },
    "phone": {
        "en": ("Phone", "Tel.", "Telephone", "Mobile"),
        "de": ("Telefon", "Tel.", "Mobil", "Durchwahl"),
        "fr": ("Téléphone", "Tél.", "Portable"),
        "es": ("Teléfono", "Tel.", "Móvil"),
        "nl": ("Telefoon", "Tel.", "Mobiel"),
    },
    "email": {
        "en": ("E-mail", "Email", "Mail address"),
        "de": ("E-Mail", "E-Mail-Adresse"),
        "fr": ("Courriel", "E-mail", "Adresse e-mail"),
        "es": ("Correo", "Correo electrónico", "E-mail"),
        "nl": ("E-mail", "E-mailadres"),
    },
    "ref": {
        "en": ("Ref.", "No.", "ID", "Ticket", "Order no.", "File"),
        "de": ("Nr.", "Az.", "Vorgang", "Ticket", "Bestell-Nr.", "Kennung"),
        "fr": ("Réf.", "N°", "Dossier", "Ticket", "Identifiant"),
        "es": ("Ref.", "N.º", "Expediente", "Ticket", "Identificador"),
        "nl": ("Ref.", "Nr.", "Dossier", "Ticket", "Kenmerk"),
    },
    "role": {
        "en": ("Role", "Department", "Team", "Function"),
        "de": ("Rolle", "Abteilung", "Team", "Funktion"),
        "fr": ("Rôle", "Service", "Équipe", "Fonction"),
        "es": ("Rol", "Departamento", "Equipo", "Cargo"),
        "nl": ("Rol", "Afdeling", "Team", "Functie"),
    },
    "note": {
        "en": ("Notes", "Comment", "Remarks", "Next step"),
        "de": ("Bemerkung", "Kommentar", "Hinweise", "Nächster Schritt"),
        "fr": ("Remarques", "Commentaire", "Observations", "Suite"),
        "es": ("Notas", "Comentario", "Observaciones", "Siguiente paso"),
        "nl": ("Opmerkingen", "Toelichting", "Notities", "Vervolg"),
    },
    "priority": {
        "en": ("Priority", "Prio.", "Risk"),
        "de": ("Priorität", "Prio.", "Risiko"),
        "fr": ("Priorité", "Risque"),
        "es": ("Prioridad", "Riesgo"),
        "nl": ("Prioriteit", "Risico"),
    },
    "param": {
        "en": ("Parameter", "Property", "Characteristic", "Setting"),
        "de": ("Parameter", "Eigenschaft", "Merkmal", "Einstellung"),
        "fr": ("Paramètre", "Propriété", "Caractéristique", "Réglage"),
        "es": ("Parámetro", "Propiedad", "Característica", "Ajuste"),
        "nl": ("Parameter", "Eigenschap", "Kenmerk", "Instelling"),
    },
    "value": {
        "en": ("Value", "Setting", "Specification", "Limit"),
        "de": ("Wert", "Vorgabe", "Spezifikation", "Grenzwert"),
        "fr": ("Valeur", "Consigne", "Spécification", "Limite"),
        "es": ("Valor", "Consigna", "Especificación", "Límite"),
        "nl": ("Waarde", "Instelling", "Specificatie", "Grenswaarde"),
    },
    "count": {
        "en": ("Qty", "Count", "Hours", "Days", "Pages", "Seats"),
        "de": ("Anzahl", "Menge", "Stunden", "Tage", "Seiten", "Plätze"),
        "fr": ("Qté", "Nombre", "Heures", "Jours", "Pages", "Places"),
        "es": ("Cant.", "Número", "Horas", "Días", "Páginas", "Plazas"),
        "nl": ("Aantal", "Uren", "Dagen", "Pagina's", "Plaatsen"),
    },
    "amount": {
        "en": ("Amount", "Cost", "Budget", "Fee"),
        "de": ("Betrag", "Kosten", "Budget", "Gebühr"),
        "fr": ("Montant", "Coût", "Budget", "Frais"),
        "es": ("Importe", "Coste", "Presupuesto", "Tarifa"),
        "nl": ("Bedrag", "Kosten", "Budget", "Tarief"),
    },
    "flag": {
        "en": ("Approved", "Signed", "Done", "Present", "Paid"),
        "de": ("Genehmigt", "Unterschrieben", "Erledigt", "Anwesend", "Bezahlt"),
        "fr": ("Validé", "Signé", "Fait", "Présent", "Payé"),
        "es": ("Aprobado", "Firmado", "Hecho", "Presente", "Pagado"),
        "nl": ("Goedgekeurd", "Getekend", "Gereed", "Aanwezig", "Betaald"),
    },
}
_FIRST = ("date", "time", "ref", "person", "item", "param")
_REST = (
    "date",
    "person",
    "status",
    "item",
    "place",
    "phone",
    "email",
    "ref",
    "role",
    "note",
    "priority",
    "value",
    "flag",
    "count",
    "amount",
)
_NUMERIC = ("count", "amount")

_GIVEN = (
    "Anna",
    "Jonas",
    "Marie",
    "Lucas",
    "Sofia",
    "Daan",
    "Amira",
    "Chen",
    "Olga",
    "Tomás",
    "Priya",
    "Kwame",
    "Léa",
    "Mateo",
    "Ines",
    "Yusuf",
)
_FAMILY = (
    "Berg",
    "Weber",
    "Dubois",
    "Martin",
    "García",
    "de Vries",
    "Haddad",
    "Nakamura",
    "Petrova",
    "Silva",
    "Raman",
    "Mensah",
    "Moreau",
    "López",
    "Jansen",
    "Demir",
)
_ACTIONS = {
    "en": (
        "Review",
        "Approval",
        "Delivery",
        "Audit",
        "Training",
        "Workshop",
        "Inspection",
        "Handover",
        "Update",
        "Migration",
        "Testing",
        "Kick-off",
        "Sign-off",
        "Draft",
    ),
    "de": (
        "Prüfung",
        "Freigabe",
        "Lieferung",
        "Audit",
        "Schulung",
        "Workshop",
        "Begehung",
        "Übergabe",
        "Aktualisierung",
        "Umstellung",
        "Test",
        "Auftakt",
        "Abnahme",
        "Entwurf",
    ),
    "fr": (
        "Revue",
        "Validation",
        "Livraison",
        "Audit",
        "Formation",
        "Atelier",
        "Inspection",
        "Passation",
        "Mise à jour",
        "Migration",
        "Recette",
        "Lancement",
        "Réception",
        "Projet",
    ),
    "es": (
        "Revisión",
        "Aprobación",
        "Entrega",
        "Auditoría",
        "Formación",
        "Taller",
        "Inspección",
        "Traspaso",
        "Actualización",
        "Migración",
        "Pruebas",
        "Arranque",
        "Recepción",
        "Borrador",
    ),
    "nl": (
        "Review",
        "Goedkeuring",
        "Levering",
        "Audit",
        "Training",
        "Workshop",
        "Inspectie",
        "Overdracht",
        "Bijwerken",
        "Migratie",
        "Testen",
        "Aftrap",
        "Oplevering",
        "Concept",
    ),
}
OBJECTS = {
    "en": (
        "supplier contracts",
        "site plan",
        "Q3 figures",
        "safety manual",
        "floor layout",
        "budget request",
        "IT inventory",
        "tender documents",
        "customer survey",
        "fire drill",
        "access badges",
        "data protection notice",
        "travel policy",
        "annual accounts",
    ),
    "de": (
        "Lieferantenverträge",
        "Lageplan",
        "Zahlen Q3",
        "Sicherheitshandbuch",
        "Raumplanung",
        "Budgetantrag",
        "IT-Inventar",
        "Ausschreibungsunterlagen",
        "Kundenumfrage",
        "Brandschutzübung",
        "Zutrittsausweise",
        "Datenschutzhinweis",
        "Reiserichtlinie",
        "Jahresabschluss",
    ),
    "fr": (
        "contrats fournisseurs",
        "plan du site",
        "chiffres du T3",
        "manuel de sécurité",
        "aménagement des bureaux",
        "demande de budget",
        "inventaire informatique",
        "dossier d'appel d'offres",
        "enquête clients",
        "exercice d'évacuation",
        "badges d'accès",
        "notice RGPD",
        "politique de voyage",
        "comptes annuels",
    ),
    "es": (
        "contratos de proveedores",
        "plano del centro",
        "cifras del T3",
        "manual de seguridad",
        "distribución de oficinas",
        "solicitud de presupuesto",
        "inventario informático",
        "pliego de la licitación",
        "encuesta a clientes",
        "simulacro de incendio",
        "tarjetas de acceso",
        "aviso de privacidad",
        "política de viajes",
        "cuentas anuales",
    ),
    "nl": (
        "leverancierscontracten",
        "terreinplan",
        "cijfers Q3",
        "veiligheidshandboek",
        "kantoorindeling",
        "budgetaanvraag",
        "IT-inventaris",
        "aanbestedingsstukken",
        "klantenonderzoek",
        "ontruimingsoefening",
        "toegangspassen",
        "privacyverklaring",
        "reisbeleid",
        "jaarrekening",
    ),
}
_STATES = {
    "en": ("open", "done", "in progress", "on hold", "pending", "late", "cancelled", "planned"),
    "de": (
        "offen",
        "erledigt",
        "in Arbeit",
        "zurückgestellt",
        "ausstehend",
        "verspätet",
        "geplant",
    ),
    "fr": ("ouvert", "terminé", "en cours", "en attente", "reporté", "annulé", "prévu"),
    "es": ("abierto", "hecho", "en curso", "en espera", "pendiente", "retrasado", "previsto"),
    "nl": ("open", "gereed", "lopend", "on hold", "uitgesteld", "vervallen", "gepland"),
}
_PRIORITIES = {
    "en": ("high", "medium", "low", "High", "Low", "P1", "P2", "P3"),
    "de": ("hoch", "mittel", "niedrig", "A", "B", "C"),
    "fr": ("haute", "moyenne", "basse", "P1", "P2", "P3"),
    "es": ("alta", "media", "baja", "P1", "P2"),
    "nl": ("hoog", "middel", "laag", "P1", "P2"),
}
_YES_NO = {
    "en": ("yes", "no", "Yes", "No", "x", "–"),
    "de": ("ja", "nein", "Ja", "Nein", "x", "–"),
    "fr": ("oui", "non", "Oui", "Non", "x", "–"),
    "es": ("sí", "no", "Sí", "No", "x", "–"),
    "nl": ("ja", "nee", "Ja", "Nee", "x", "–"),
}
_ROLES = {
    "en": ("Finance", "Legal", "Purchasing", "IT", "Facilities", "Sales", "HR", "Quality"),
    "de": ("Finanzen", "Recht", "Einkauf", "IT", "Gebäude", "Vertrieb", "Personal", "Qualität"),
    "fr": ("Finance", "Juridique", "Achats", "DSI", "Services généraux", "Ventes", "RH"),
    "es": ("Finanzas", "Jurídico", "Compras", "Sistemas", "Mantenimiento", "Ventas", "RR. HH."),
    "nl": ("Financiën", "Juridisch", "Inkoop", "ICT", "Facilitair", "Verkoop", "HR", "Kwaliteit"),
}
_ROOMS = {
    "en": ("Room", "Hall", "Meeting room"),
    "de": ("Raum", "Saal", "Besprechungsraum"),
    "fr": ("Salle", "Bureau", "Amphi"),
    "es": ("Sala", "Aula", "Despacho"),
    "nl": ("Zaal", "Kamer", "Vergaderruimte"),
}
_TOWNS = (
    "Lyon",
    "Gent",
    "Bilbao",
    "Bremen",
    "Leeds",
    "Utrecht",
    "Graz",
    "Porto",
    "Nantes",
    "Aarhus",
    "Online",
)
_MONTHS = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    "de": (
        "Jan.",
        "Feb.",
        "März",
        "Apr.",
        "Mai",
        "Juni",
        "Juli",
        "Aug.",
        "Sep.",
        "Okt.",
        "Nov.",
        "Dez.",
    ),
    "fr": (
        "janv.",
        "févr.",
        "mars",
        "avr.",
        "mai",
        "juin",
        "juil.",
        "août",
        "sept.",
        "oct.",
        "nov.",
        "déc.",
    ),
    "es": (
        "ene.",
        "feb.",
        "mar.",
        "abr.",
        "may.",
        "jun.",
        "jul.",
        "ago.",
        "sept.",
        "oct.",
        "nov.",
        "dic.",
    ),
    "nl": (
        "jan.",
        "feb.",
        "mrt.",
        "apr.",
        "mei",
        "jun.",
        "jul.",
        "aug.",
        "sep.",
        "okt.",
        "nov.",
        "dec.",
    ),
}
_PARAMS = {
    "en": (
        "Supply voltage",
        "Frequency",
        "Operating temperature",
        "Protection class",
        "Weight",
        "Dimensions",
        "Interface",
        "Warranty",
        "Max. load",
        "Noise level",
    ),
    "de": (
        "Versorgungsspannung",
        "Frequenz",
        "Betriebstemperatur",
        "Schutzart",
        "Gewicht",
        "Abmessungen",
        "Schnittstelle",
        "Gewährleistung",
        "Max. Last",
        "Geräuschpegel",
    ),
    "fr": (
        "Tension d'alimentation",
        "Fréquence",
        "Température de service",
        "Indice de protection",
        "Poids",
        "Dimensions",
        "Interface",
        "Garantie",
        "Charge max.",
        "Niveau sonore",
    ),
    "es": (
        "Tensión de alimentación",
        "Frecuencia",
        "Temperatura de trabajo",
        "Grado de protección",
        "Peso",
        "Dimensiones",
        "Interfaz",
        "Garantía",
        "Carga máx.",
        "Nivel de ruido",
    ),
    "nl": (
        "Voedingsspanning",
        "Frequentie",
        "Bedrijfstemperatuur",
        "Beschermingsklasse",
        "Gewicht",
        "Afmetingen",
        "Interface",
        "Garantie",
        "Max. belasting",
        "Geluidsniveau",
    ),
}
_NOTES = {
    "en": ("see annex", "waiting for quote", "moved to next week", "with legal", "agreed"),
    "de": ("siehe Anlage", "Angebot fehlt", "auf nächste Woche verschoben", "bei Recht"),
    "fr": ("voir annexe", "devis attendu", "reporté à la semaine prochaine", "accord obtenu"),
    "es": ("ver anexo", "falta presupuesto", "aplazado a la próxima semana", "acordado"),
    "nl": ("zie bijlage", "wacht op offerte", "verschoven naar volgende week", "akkoord"),
}
_PHASES = {
    "en": ("Phase", "Day", "Week", "Part", "Session"),
    "de": ("Phase", "Tag", "Woche", "Teil", "Block"),
    "fr": ("Phase", "Jour", "Semaine", "Partie", "Séance"),
    "es": ("Fase", "Día", "Semana", "Parte", "Sesión"),
    "nl": ("Fase", "Dag", "Week", "Deel", "Sessie"),
}


# --- values ----------------------------------------------------------------------------


def _person(rng: random.Random, style: int) -> str:
    given, family = rng.choice(_GIVEN), rng.choice(_FAMILY)
    if style == 0:
        return f"{given} {family}"
    if style == 1:
        return f"{given[0]}. {family}"
    return f"{family}, {given}"


def _date_style(rng: random.Random, lang: str) -> Callable[[random.Random], str]:
    """One date format for the whole column (a column mixes none)."""
    sep = {"de": ".", "nl": "-"}.get(lang, "/")
    year = rng.randint(2019, 2027)
    form = rng.randrange(4)

    def one(r: random.Random) -> str:
        d, m = r.randint(1, 28), r.randint(1, 12)
        if form == 0:
            return f"{d:02d}{sep}{m:02d}{sep}{year}"
        if form == 1:
            return f"{year}-{m:02d}-{d:02d}"
        if form == 2:
            return f"{d} {_MONTHS[lang][m - 1]} {year}"
        return f"{d:02d}{sep}{m:02d}{sep}"

    return one


def _time(rng: random.Random, lang: str, ranged: bool) -> str:
    h, m = rng.randint(7, 18), rng.choice((0, 15, 30, 45))
    mark = "h" if lang == "fr" else ":"
    start = f"{h:02d}{mark}{m:02d}"
    if not ranged:
        return start
    h2 = h + rng.randint(0, 2)
    return f"{start}–{h2:02d}{mark}{rng.choice((0, 15, 30, 45)):02d}"


def _amount(rng: random.Random, lang: str) -> str:
    text = f"{rng.uniform(20, 90000):,.2f}"
    if lang != "en":
        text = text.replace(",", " ").replace(".", ",")
    return text


def phrase(rng: random.Random, lang: str) -> str:
    action, target = rng.choice(_ACTIONS[lang]), rng.choice(OBJECTS[lang])
    roll = rng.random()
    if roll < 0.2:
        return action
    if lang == "de":
        return f"{action} {target}"
    joint = {"en": "of the", "fr": "–", "es": "de", "nl": "van"}[lang]
    return f"{action} {joint} {target}" if roll < 0.7 else f"{action}: {target}"


def _maker(kind: str, rng: random.Random, lang: str) -> Callable[[random.Random], str]:
    """The cell maker of a column of ``kind``; the column's style is drawn once here."""
    if kind == "date":
        return _date_style(rng, lang)
    if kind == "time":
        ranged = rng.random() < 0.5
        return lambda r: _time(r, lang, ranged)
    if kind == "person":
        style = rng.choice((0, 0, 1, 1, 2))
        return lambda r: _person(r, style)
    if kind == "status":
        return lambda r: r.choice(_STATES[lang])
    if kind == "item":
        return lambda r: phrase(r, lang)
    if kind == "place":
        rooms = rng.random() < 0.6
        word = rng.choice(_ROOMS[lang])
        return lambda r: (
            f"{word} {r.choice('ABC')}{r.randint(1, 4)}.{r.randint(1, 30):02d}"
            if rooms
            else r.choice(_TOWNS)
        )
    if kind == "phone":
        code = rng.choice(("+33", "+49", "+31", "+34", "+44", "0"))
        return lambda r: f"{code} {r.randint(10, 99)} {r.randint(100, 999)} {r.randint(1000, 9999)}"
    if kind == "email":
        domain = rng.choice(("example.org", "firma.de", "societe.fr", "empresa.es", "bedrijf.nl"))
        return lambda r: (
            f"{r.choice(_GIVEN)[0].lower()}.{r.choice(_FAMILY).split()[-1].lower()}@{domain}"
        )
    if kind == "ref":
        prefix = rng.choice(("A-", "INC-", "PO ", "", "D"))
        year = rng.random() < 0.3
        return lambda r: (
            f"{r.randint(2019, 2027)}/{r.randint(1, 999):03d}"
            if year
            else f"{prefix}{r.randint(100, 99999)}"
        )
    if kind == "role":
        return lambda r: r.choice(_ROLES[lang])
    if kind == "note":
        return lambda r: r.choice(_NOTES[lang]) if r.random() < 0.6 else ""
    if kind == "priority":
        return lambda r: r.choice(_PRIORITIES[lang])
    if kind == "param":
        return lambda r: r.choice(_PARAMS[lang])
    if kind == "value":
        units = ("V", "Hz", "°C", "kg", "mm", "dB", "bar", "%", "kW", "months")
        return lambda r: (
            f"{r.randint(1, 400)} {r.choice(units)}"
            if r.random() < 0.7
            else f"{r.randint(-40, 0)} … {r.randint(20, 90)} {r.choice(units)}"
        )
    if kind == "flag":
        return lambda r: r.choice(_YES_NO[lang])
    if kind == "count":
        return lambda r: str(r.randint(0, 120))
    if kind == "amount":
        return lambda r: _amount(r, lang)
    raise ValueError(f"unknown column kind {kind!r}")


def _column(kind: str, rng: random.Random) -> Column:
    if kind in _NUMERIC:
        return "num", rng.choice("rrc")
    if kind in ("item", "note", "param"):
        return "text", "l"
    # short fields: mostly flush left, now and then centred (dates, states, flags)
    centred = kind in ("date", "time", "status", "flag", "priority") and rng.random() < 0.25
    return "field", "c" if centred else "l"


# --- the table -------------------------------------------------------------------------


def record(rng: random.Random, lang: str, max_cols: int) -> Record:
    """One table of records in ``lang`` with at most ``max_cols`` columns (at least two)."""
    first = rng.choice(_FIRST)
    rest = [k for k in _REST if k != first]
    rng.shuffle(rest)
    n = rng.randint(2, max(2, min(6, max_cols)))
    kinds = [first]
    numeric = 0
    if first == "param":
        kinds.append("value")
    for k in rest:
        if len(kinds) >= n:
            break
        if k in kinds or (k in _NUMERIC and numeric) or (k == "value" and first != "param"):
            continue
        numeric += k in _NUMERIC
        kinds.append(k)
    columns = [_column(k, rng) for k in kinds]
    makers = [_maker(k, rng, lang) for k in kinds]
    header: list[str] | None = None
    if rng.random() < 0.88:
        header = [rng.choice(_HEADS[k][lang]) for k in kinds]
    rows = rng.randint(2, 14)
    sections = rng.random() < 0.15 and rows >= 5
    phase = rng.choice(_PHASES[lang])
    body: list[list[str]] = []
    row_kinds: list[str] = []
    group = 0
    for r in range(rows):
        if sections and r % rng.randint(3, 5) == 0:
            group += 1
            body.append([f"{phase} {group}"] + [""] * (len(kinds) - 1))
            row_kinds.append("section")
            continue
        body.append([make(rng) for make in makers])
        row_kinds.append("data")
    return Record(columns, header, body, row_kinds)
