"""Wordings of the block grammar, German and English: several ways to say each thing.

A layout family fixes a few of these choices (which title, which labels); the document
draws the rest. The lists deliberately overlap between types where real documents do
(letters mention amounts and dates, orders carry prices and totals, statements IBANs):
a type is told by its title and its structure, not by one word.
"""

from __future__ import annotations

Pair = tuple[tuple[str, ...], tuple[str, ...]]
"""(German wordings, English wordings)."""

TITLES: dict[str, Pair] = {
    "invoice": (
        (
            "Rechnung",
            "RECHNUNG",
            "Rechnung Nr.",
            "Faktura",
            "Abschlagsrechnung",
            "Schlussrechnung",
            "Honorarrechnung",
            "Rechnung / Invoice",
            "Ihre Rechnung",
            "Sammelrechnung",
        ),
        (
            "Invoice",
            "INVOICE",
            "Tax Invoice",
            "Invoice No.",
            "Bill",
            "Final Invoice",
            "Sales Invoice",
            "Fee Note",
            "Your invoice",
            "Interim invoice",
        ),
    ),
    "purchase_order": (
        (
            "Bestellung",
            "BESTELLUNG",
            "Auftrag",
            "Bestellschein",
            "Einkaufsauftrag",
            "Auftragserteilung",
            "Bestellung Nr.",
            "Nachbestellung",
            "Abrufauftrag",
            "Verbindliche Bestellung",
            "Lieferauftrag",
            "Order",
        ),
        (
            "Purchase Order",
            "PURCHASE ORDER",
            "PO",
            "Order",
            "Purchase order no.",
            "Order Form",
            "Procurement Order",
            "Official Order",
            "Repeat Order",
            "Blanket order release",
            "P.O.",
        ),
    ),
    "bank_statement": (
        (
            "Kontoauszug",
            "KONTOAUSZUG",
            "Kontoauszug Nr.",
            "Umsatzübersicht",
            "Girokonto",
            "Kontoumsätze",
            "Auszug",
            "Finanzstatus",
            "Depot- und Kontoauszug",
            "Tagesauszug",
            "Kontoinformation",
        ),
        (
            "Account statement",
            "Bank statement",
            "STATEMENT OF ACCOUNT",
            "Statement",
            "Current account statement",
            "Transaction history",
            "Your statement",
            "Monthly statement",
            "Account activity",
            "Business account statement",
        ),
    ),
    "delivery_note": (
        (
            "Lieferschein",
            "LIEFERSCHEIN",
            "Packliste",
            "Warenbegleitschein",
            "Versandbeleg",
            "Lieferschein Nr.",
            "Teillieferung",
            "Rücklieferschein",
            "Lieferavis",
        ),
        (
            "Delivery note",
            "DELIVERY NOTE",
            "Packing slip",
            "Dispatch note",
            "Goods delivery note",
            "Packing list",
            "Consignment note",
            "Part delivery",
        ),
    ),
    "contract": (
        (
            "Vertrag",
            "Mietvertrag",
            "Dienstleistungsvertrag",
            "Arbeitsvertrag",
            "Wartungsvertrag",
            "Kaufvertrag",
            "Rahmenvereinbarung",
            "Vereinbarung",
            "Werkvertrag",
            "Beratervertrag",
            "Nutzungsvereinbarung",
            "VERTRAG",
        ),
        (
            "Agreement",
            "Service Agreement",
            "Tenancy Agreement",
            "Employment Contract",
            "Contract of Sale",
            "Maintenance Contract",
            "Framework Agreement",
            "Consultancy Agreement",
            "Licence Agreement",
            "CONTRACT",
            "Terms of Engagement",
        ),
    ),
    "report": (
        (
            "Bericht",
            "Jahresbericht",
            "Quartalsbericht",
            "Prüfbericht",
            "Projektbericht",
            "Statusbericht",
            "Analyse",
            "Gutachten",
            "Marktanalyse",
            "Abschlussbericht",
            "Auswertung",
            "Tätigkeitsbericht",
        ),
        (
            "Report",
            "Annual Report",
            "Quarterly Report",
            "Inspection Report",
            "Project Status Report",
            "Analysis",
            "Study",
            "Market Review",
            "Final Report",
            "Evaluation",
            "Progress Report",
            "White Paper",
        ),
    ),
    "advertisement": (
        (
            "Jetzt zugreifen!",
            "SOMMER-SALE",
            "Nur diese Woche",
            "Neueröffnung",
            "Angebot der Woche",
            "Alles muss raus!",
            "Frühbucher-Rabatt",
            "Jubiläumsaktion",
            "Unsere Knaller-Preise",
            "Herbstaktion",
            "Gratis testen",
        ),
        (
            "Big Summer Sale",
            "THIS WEEK ONLY",
            "Grand Opening",
            "Special Offer",
            "Everything must go!",
            "Early bird deal",
            "Anniversary sale",
            "Unbeatable prices",
            "Try it free",
            "Clearance",
            "Limited time offer",
        ),
    ),
    "form": (
        (
            "Antrag",
            "Anmeldeformular",
            "Formular",
            "Erhebungsbogen",
            "Änderungsmitteilung",
            "Fragebogen",
            "Antrag auf Erstattung",
            "Anmeldung",
            "Aufnahmeantrag",
            "Meldebogen",
            "Schadensmeldung",
        ),
        (
            "Application Form",
            "Registration Form",
            "Form",
            "Change of Address",
            "Questionnaire",
            "Claim Form",
            "Enrolment Form",
            "Request Form",
            "Membership Application",
            "Incident Report Form",
            "Data Collection Sheet",
        ),
    ),
    "receipt": (
        ("Kassenbon", "Quittung", "Beleg", "Kassenbeleg", "Bon", "Kundenbeleg", "Rechnung"),
        (
            "Receipt",
            "Sales receipt",
            "Till receipt",
            "Cash receipt",
            "Customer copy",
            "Tax invoice",
            "Thank you",
        ),
    ),
    "handwritten": (
        ("Notiz", "Einkaufsliste", "Telefonnotiz", "Merkzettel", "Liebe", "Hallo", "To do"),
        ("Note", "Shopping list", "Phone message", "Reminder", "Dear", "Hi", "To do"),
    ),
}

NUMBER_LABELS: dict[str, Pair] = {
    "invoice": (
        ("Rechnungsnummer", "Rechnungs-Nr.", "Beleg-Nr.", "Nr."),
        ("Invoice number", "Invoice no.", "Number", "Ref."),
    ),
    "purchase_order": (
        ("Bestellnummer", "Bestell-Nr.", "Auftrags-Nr.", "Unsere Bestellung"),
        ("PO number", "Order no.", "PO #", "Purchase order"),
    ),
    "delivery_note": (
        ("Lieferschein-Nr.", "Liefernummer", "Sendung"),
        ("Delivery no.", "Dispatch no.", "Shipment"),
    ),
    "bank_statement": (("Auszug", "Auszugsnummer", "Blatt"), ("Statement no.", "Sheet", "Page")),
    "contract": (("Vertragsnummer", "Vertrags-Nr.", "Az."), ("Contract no.", "Reference", "Ref.")),
    "report": (("Dokument", "Version", "Bericht-Nr."), ("Document", "Version", "Report no.")),
    "form": (
        ("Vorgang", "Kundennummer", "Aktenzeichen"),
        ("Case no.", "Customer no.", "File ref."),
    ),
}

DATE_LABELS: Pair = (
    ("Datum", "Belegdatum", "vom", "Erstellt am"),
    ("Date", "Issue date", "Dated", "Created"),
)

CUSTOMER_LABELS: Pair = (
    ("Kunden-Nr.", "Kundennummer", "Ihre Kundennummer", "Debitor"),
    ("Customer no.", "Account no.", "Customer ID", "Client ref."),
)

ITEM_HEADERS: dict[str, Pair] = {
    "pos": (("Pos.", "Nr.", "#"), ("Item", "No.", "#")),
    "desc": (
        ("Bezeichnung", "Beschreibung", "Artikel", "Leistung", "Text"),
        ("Description", "Item", "Product", "Service", "Details"),
    ),
    "qty": (("Menge", "Anz.", "Stück", "Anzahl"), ("Qty", "Quantity", "Units", "Amount")),
    "unit": (("Einheit", "ME", "Eh."), ("Unit", "UoM", "Pack")),
    "price": (
        ("Einzelpreis", "E-Preis", "Preis", "Stückpreis"),
        ("Unit price", "Price", "Rate", "Each"),
    ),
    "total": (
        ("Gesamt", "Betrag", "Summe", "Gesamtpreis"),
        ("Total", "Amount", "Line total", "Net"),
    ),
    "sku": (("Art.-Nr.", "Artikelnummer", "Material"), ("SKU", "Part no.", "Article")),
}

TOTAL_WORDS: dict[str, Pair] = {
    "net": (
        ("Nettobetrag", "Summe netto", "Zwischensumme", "Warenwert"),
        ("Subtotal", "Net total", "Net amount", "Goods total"),
    ),
    "tax": (
        ("MwSt.", "USt.", "zzgl. MwSt.", "Umsatzsteuer"),
        ("VAT", "Tax", "Sales tax", "plus VAT"),
    ),
    "gross": (
        ("Gesamtbetrag", "Rechnungsbetrag", "Endbetrag", "Summe brutto", "Total"),
        ("Total", "Amount due", "Grand total", "Total due", "Balance due"),
    ),
    "order": (
        ("Bestellwert", "Auftragswert", "Gesamtsumme", "Summe"),
        ("Order total", "Order value", "Total", "PO total"),
    ),
}

INVOICE_TERMS: Pair = (
    (
        "Zahlbar innerhalb von {days} Tagen ohne Abzug.",
        "Bitte überweisen Sie den Betrag bis zum {due}.",
        "Zahlungsziel: {days} Tage netto.",
        "Der Betrag wird von Ihrem Konto abgebucht.",
        "Bei Zahlung bis {due} gewähren wir 2 % Skonto.",
        "Leistungszeitraum entspricht Rechnungsdatum.",
    ),
    (
        "Payment due within {days} days.",
        "Please pay by {due}.",
        "Terms: net {days} days.",
        "The amount will be collected by direct debit.",
        "2% discount if paid by {due}.",
        "Please quote the invoice number with your payment.",
    ),
)

ORDER_TERMS: Pair = (
    (
        "Bitte bestätigen Sie diese Bestellung innerhalb von {days} Tagen.",
        "Liefertermin: {due}. Bitte Bestellnummer auf allen Lieferpapieren angeben.",
        "Es gelten unsere Allgemeinen Einkaufsbedingungen.",
        "Wir bestellen zu den Konditionen Ihres Angebots vom {date}.",
        "Lieferung frei Haus an die unten genannte Lieferadresse.",
        "Teillieferungen nur nach Absprache. Rechnung bitte in zweifacher Ausfertigung.",
    ),
    (
        "Please confirm this order within {days} days.",
        "Required delivery date: {due}. Quote the PO number on all delivery documents.",
        "Our general terms of purchase apply.",
        "We order on the terms of your quotation of {date}.",
        "Deliver carriage paid to the delivery address below.",
        "No part deliveries without prior agreement. Send invoices to accounts payable.",
    ),
)

ORDER_INTRO: Pair = (
    (
        "hiermit bestellen wir verbindlich:",
        "wir bestellen folgende Artikel:",
        "gemäß Ihrem Angebot bestellen wir:",
        "bitte liefern Sie uns:",
    ),
    (
        "We hereby order the following:",
        "Please supply the following goods:",
        "Further to your quotation, please deliver:",
        "Please accept our order for:",
    ),
)

DELIVERY_WORDS: Pair = (
    (
        "Lieferadresse",
        "Lieferanschrift",
        "Versandart",
        "Anzahl Packstücke",
        "Gewicht",
        "Ware vollständig erhalten",
        "Unterschrift Empfänger",
        "Spediteur",
    ),
    (
        "Delivery address",
        "Ship to",
        "Shipped via",
        "Packages",
        "Weight",
        "Goods received in good order",
        "Received by",
        "Carrier",
    ),
)

STATEMENT_HEADERS: Pair = (
    (
        "Buchungstag",
        "Wert",
        "Verwendungszweck",
        "Umsatz",
        "Betrag",
        "Buchungstext",
        "Valuta",
        "Soll",
        "Haben",
    ),
    (
        "Date",
        "Value date",
        "Description",
        "Amount",
        "Details",
        "Paid out",
        "Paid in",
        "Balance",
        "Reference",
    ),
)

STATEMENT_WORDS: Pair = (
    (
        "Alter Kontostand",
        "Neuer Kontostand",
        "Anfangssaldo",
        "Endsaldo",
        "Kontonummer",
        "Kontoinhaber",
        "Dispositionskredit",
        "Zeitraum",
        "Saldo",
        "Übertrag",
        "Bankleitzahl",
    ),
    (
        "Opening balance",
        "Closing balance",
        "Balance brought forward",
        "Balance carried forward",
        "Account number",
        "Account holder",
        "Overdraft limit",
        "Period",
        "Sort code",
        "Statement period",
        "Available balance",
    ),
)

BOOKINGS: Pair = (
    (
        "Lastschrift {who}",
        "Gutschrift {who}",
        "Überweisung an {who}",
        "Kartenzahlung {who}",
        "Dauerauftrag Miete",
        "Gehalt/Lohn",
        "Bargeldauszahlung Geldautomat",
        "Entgelt Kontoführung",
        "SEPA-Überweisung {who}",
        "Zinsen",
        "Rücklastschrift",
        "Abbuchung {who}",
    ),
    (
        "Direct debit {who}",
        "Credit {who}",
        "Transfer to {who}",
        "Card payment {who}",
        "Standing order rent",
        "Salary",
        "Cash withdrawal ATM",
        "Account fee",
        "Faster payment {who}",
        "Interest",
        "Returned payment",
        "Bill payment {who}",
    ),
)

SALUTATIONS: Pair = (
    (
        "Sehr geehrte Damen und Herren,",
        "Sehr geehrter Herr {last},",
        "Sehr geehrte Frau {last},",
        "Guten Tag {first} {last},",
        "Liebe {first},",
        "Hallo {first},",
    ),
    (
        "Dear Sir or Madam,",
        "Dear Mr {last},",
        "Dear Ms {last},",
        "Dear {first},",
        "Hello {first},",
        "To whom it may concern,",
    ),
)

CLOSINGS: Pair = (
    (
        "Mit freundlichen Grüßen",
        "Freundliche Grüße",
        "Beste Grüße",
        "Hochachtungsvoll",
        "Mit besten Empfehlungen",
        "Herzliche Grüße",
    ),
    (
        "Yours sincerely",
        "Yours faithfully",
        "Kind regards",
        "Best wishes",
        "Regards",
        "With best regards",
    ),
)

LETTER_BODIES: Pair = (
    (
        "vielen Dank für Ihr Schreiben vom {date}.",
        "wir bestätigen den Eingang Ihrer Zahlung über {amount} am {date}.",
        "leider konnten wir den Betrag von {amount} bis heute nicht feststellen.",
        "hiermit kündige ich meine Mitgliedschaft fristgerecht zum {date}.",
        "wie telefonisch besprochen, erhöht sich der monatliche Beitrag ab {date} auf {amount}.",
        "anbei erhalten Sie die gewünschten Unterlagen zu unserem Gespräch.",
        "wir möchten Sie darüber informieren, dass sich unsere Anschrift ab {date} ändert.",
        "bitte teilen Sie uns bis zum {date} mit, ob Sie an dem Termin teilnehmen.",
        "für Ihre Geduld danken wir Ihnen und bitten die Verzögerung zu entschuldigen.",
        "die Erstattung in Höhe von {amount} wird in den nächsten Tagen Ihrem Konto gutgeschrieben.",
        "gerne laden wir Sie zu unserer Veranstaltung am {date} in {city} ein.",
        "wir haben Ihre Beschwerde geprüft und bieten Ihnen eine Gutschrift von {amount} an.",
        "Ihr Antrag wurde bewilligt; die erste Rate von {amount} wird zum {date} fällig.",
        "Sollten Sie Fragen haben, stehen wir Ihnen jederzeit gerne zur Verfügung.",
        "Wir freuen uns auf die weitere Zusammenarbeit.",
        "Bitte bewahren Sie dieses Schreiben für Ihre Unterlagen auf.",
        "Die Angelegenheit betrachten wir damit als erledigt.",
        "Wir würden uns freuen, wenn Sie uns Ihre Entscheidung bis Ende des Monats mitteilen.",
    ),
    (
        "Thank you for your letter of {date}.",
        "We confirm receipt of your payment of {amount} on {date}.",
        "Unfortunately we have not yet received the sum of {amount}.",
        "I hereby give notice to cancel my membership with effect from {date}.",
        "As discussed on the phone, the monthly fee rises to {amount} from {date}.",
        "Please find enclosed the documents you asked for at our meeting.",
        "We would like to let you know that our address changes from {date}.",
        "Please let us know by {date} whether you can attend the appointment.",
        "Thank you for your patience, and please accept our apologies for the delay.",
        "The refund of {amount} will be credited to your account within a few days.",
        "We are pleased to invite you to our event on {date} in {city}.",
        "We have looked into your complaint and would like to offer you a credit of {amount}.",
        "Your application has been approved; the first instalment of {amount} is due on {date}.",
        "If you have any questions, please do not hesitate to contact us.",
        "We look forward to continuing our work together.",
        "Please keep this letter for your records.",
        "We consider the matter closed.",
        "We would be grateful for your decision by the end of the month.",
    ),
)

SUBJECTS: Pair = (
    (
        "Ihre Anfrage vom {date}",
        "Kündigung",
        "Änderung Ihres Vertrags",
        "Einladung",
        "Zahlungserinnerung",
        "Beitragsanpassung",
        "Ihre Beschwerde",
        "Terminbestätigung",
        "Neue Anschrift",
        "Bewilligung Ihres Antrags",
        "Unterlagen",
        "Erstattung",
    ),
    (
        "Your enquiry of {date}",
        "Notice of cancellation",
        "Change to your agreement",
        "Invitation",
        "Payment reminder",
        "Fee adjustment",
        "Your complaint",
        "Appointment confirmation",
        "Change of address",
        "Your application",
        "Documents",
        "Refund",
    ),
)

SUBJECT_PREFIX: Pair = (("Betreff: ", "Betr.: ", "", ""), ("Re: ", "Subject: ", "", "RE: "))

EMAIL_HEADERS: Pair = (
    ("Von", "An", "Gesendet", "Betreff", "Cc", "Datum", "Anlagen"),
    ("From", "To", "Sent", "Subject", "Cc", "Date", "Attachments"),
)

EMAIL_BODIES: Pair = (
    (
        "anbei wie besprochen die Unterlagen.",
        "kurze Rückfrage zu unserem Termin morgen:",
        "kannst du mir bitte die aktuelle Version schicken?",
        "danke für die schnelle Antwort!",
        "ich bin ab {date} im Urlaub und ab dem Folgetag wieder erreichbar.",
        "die Rechnung über {amount} habe ich an die Buchhaltung weitergeleitet.",
        "wollen wir das Meeting auf Donnerstag verschieben?",
        "siehe unten, bitte um Freigabe.",
        "das Angebot liegt bei {amount}, passt das für euch?",
        "Gruß aus {city}",
    ),
    (
        "please find attached the documents as discussed.",
        "quick question about tomorrow's call:",
        "could you send me the latest version?",
        "thanks for the quick reply!",
        "I am out of office from {date} and back the day after.",
        "I forwarded the invoice for {amount} to accounts.",
        "shall we move the meeting to Thursday?",
        "see below, please approve.",
        "the quote comes to {amount}, does that work for you?",
        "Greetings from {city}",
    ),
)

EMAIL_SIGNOFFS: Pair = (
    ("Viele Grüße", "VG", "Beste Grüße", "Gruß", "LG", "Danke und Gruß"),
    ("Best", "Cheers", "Thanks", "Kind regards", "BR", "Many thanks"),
)

CONTRACT_PARTIES: Pair = (
    (
        "zwischen",
        "und",
        "- nachfolgend \u201eAuftraggeber\u201c genannt -",
        "- nachfolgend \u201eAuftragnehmer\u201c genannt -",
        "wird folgender Vertrag geschlossen:",
        "Vermieter",
        "Mieter",
        "Arbeitgeber",
        "Arbeitnehmer",
    ),
    (
        "between",
        "and",
        "(hereinafter the \u201cClient\u201d)",
        "(hereinafter the \u201cContractor\u201d)",
        "the parties agree as follows:",
        "Landlord",
        "Tenant",
        "Employer",
        "Employee",
    ),
)

CLAUSE_HEADS: Pair = (
    (
        "Vertragsgegenstand",
        "Vertragsdauer",
        "Vergütung",
        "Kündigung",
        "Haftung",
        "Vertraulichkeit",
        "Gewährleistung",
        "Schlussbestimmungen",
        "Pflichten des Auftragnehmers",
        "Mietzins und Nebenkosten",
        "Arbeitszeit",
        "Urlaub",
        "Gerichtsstand",
        "Salvatorische Klausel",
    ),
    (
        "Subject matter",
        "Term",
        "Remuneration",
        "Termination",
        "Liability",
        "Confidentiality",
        "Warranty",
        "Final provisions",
        "Duties of the Contractor",
        "Rent and service charges",
        "Working hours",
        "Holidays",
        "Governing law",
        "Severability",
    ),
)

CLAUSE_TEXT: Pair = (
    (
        "Der Vertrag beginnt am {date} und wird auf unbestimmte Zeit geschlossen.",
        "Die monatliche Vergütung beträgt {amount} zuzüglich der gesetzlichen Umsatzsteuer.",
        "Der Vertrag kann von beiden Parteien mit einer Frist von drei Monaten zum Quartalsende gekündigt werden.",
        "Die Parteien verpflichten sich, alle vertraulichen Informationen geheim zu halten.",
        "Die Haftung ist auf Vorsatz und grobe Fahrlässigkeit beschränkt.",
        "Änderungen und Ergänzungen dieses Vertrages bedürfen der Schriftform.",
        "Sollte eine Bestimmung unwirksam sein, bleibt die Wirksamkeit der übrigen Bestimmungen unberührt.",
        "Gerichtsstand ist {city}. Es gilt das Recht der Bundesrepublik Deutschland.",
        "Die Kaution beträgt {amount} und ist vor Übergabe der Räume zu leisten.",
        "Der Auftragnehmer erbringt die Leistungen nach dem Stand der Technik.",
        "Die Rechnungsstellung erfolgt monatlich; Zahlungen sind innerhalb von 14 Tagen fällig.",
    ),
    (
        "This agreement commences on {date} and continues until terminated.",
        "The monthly fee is {amount} plus VAT at the applicable rate.",
        "Either party may terminate this agreement by giving three months' written notice.",
        "The parties shall keep all confidential information secret.",
        "Liability is limited to wilful misconduct and gross negligence.",
        "Any amendment to this agreement must be made in writing.",
        "If any provision is held invalid, the remaining provisions remain in full force.",
        "This agreement is governed by the laws of England and Wales; courts of {city} have jurisdiction.",
        "A deposit of {amount} is payable before the tenancy starts.",
        "The Contractor shall perform the services with reasonable skill and care.",
        "Invoices are issued monthly and are payable within 14 days.",
    ),
)

SIGN_LABELS: Pair = (
    ("Ort, Datum", "Unterschrift", "Auftraggeber", "Auftragnehmer", "Stempel"),
    ("Place, date", "Signature", "Signed for the Client", "Signed for the Contractor", "Witness"),
)

REPORT_HEADS: Pair = (
    (
        "Zusammenfassung",
        "Einleitung",
        "Ausgangslage",
        "Methodik",
        "Ergebnisse",
        "Diskussion",
        "Empfehlungen",
        "Ausblick",
        "Kennzahlen",
        "Risiken",
        "Anhang",
        "Fazit",
    ),
    (
        "Summary",
        "Introduction",
        "Background",
        "Method",
        "Results",
        "Discussion",
        "Recommendations",
        "Outlook",
        "Key figures",
        "Risks",
        "Appendix",
        "Conclusion",
    ),
)

REPORT_TEXT: Pair = (
    (
        "Im Berichtszeitraum stieg der Umsatz um {pct} gegenüber dem Vorjahr.",
        "Die Untersuchung stützt sich auf Daten aus {n} Standorten.",
        "Die Ergebnisse zeigen deutliche regionale Unterschiede.",
        "Wir empfehlen, die Maßnahmen im nächsten Quartal fortzuführen.",
        "Die Messwerte lagen in allen Proben unterhalb der Grenzwerte.",
        "Der Anteil der Online-Kunden erreichte {pct}.",
        "Die Kosten blieben mit {amount} im geplanten Rahmen.",
        "Abbildung {n} zeigt die Entwicklung der wichtigsten Kennzahlen.",
        "Die Befragung wurde zwischen Januar und März durchgeführt.",
        "Für das kommende Jahr erwarten wir ein moderates Wachstum.",
        "Die Prüfung ergab keine wesentlichen Beanstandungen.",
    ),
    (
        "Revenue rose by {pct} compared with the previous year.",
        "The study draws on data from {n} sites.",
        "The results show marked regional differences.",
        "We recommend continuing the measures in the next quarter.",
        "All samples measured below the limit values.",
        "The share of online customers reached {pct}.",
        "Costs stayed within budget at {amount}.",
        "Figure {n} shows the development of the key indicators.",
        "The survey was conducted between January and March.",
        "We expect moderate growth for the coming year.",
        "The inspection found no material issues.",
    ),
)

REPORT_TABLE: tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]] = (
    (
        ("Kennzahl", "Region", "Quartal", "Bereich"),
        ("Vorjahr", "Ist", "Plan", "Anteil"),
        ("Umsatz", "Kosten", "Mitarbeiter", "Kunden", "Marge", "Nord", "Süd", "West", "Ost"),
    ),
    (
        ("Indicator", "Region", "Quarter", "Segment"),
        ("Prior year", "Actual", "Budget", "Share"),
        ("Revenue", "Costs", "Staff", "Customers", "Margin", "North", "South", "West", "East"),
    ),
)
"""(first-column labels, value-column headings, row names) per language."""

AD_LINES: Pair = (
    (
        "Nur solange der Vorrat reicht!",
        "Jetzt im Handel und online",
        "Gültig bis {date}",
        "Sparen Sie bis zu {pct}",
        "Gratis Lieferung ab {amount}",
        "Besuchen Sie uns!",
        "Gutscheincode: {code}",
        "Jetzt bestellen unter",
        "Statt {old} nur",
        "Neu im Sortiment",
        "Kommen Sie vorbei und überzeugen Sie sich",
        "Alle Preise inkl. MwSt.",
    ),
    (
        "While stocks last!",
        "In stores and online now",
        "Valid until {date}",
        "Save up to {pct}",
        "Free delivery over {amount}",
        "Visit us today!",
        "Voucher code: {code}",
        "Order now at",
        "Was {old}, now only",
        "New in store",
        "Come in and see for yourself",
        "All prices include VAT.",
    ),
)

FORM_FIELDS: Pair = (
    (
        "Name",
        "Vorname",
        "Geburtsdatum",
        "Straße, Hausnummer",
        "PLZ, Ort",
        "Telefon",
        "E-Mail",
        "Staatsangehörigkeit",
        "Familienstand",
        "Beruf",
        "Versicherungsnummer",
        "IBAN",
        "Datum",
        "Unterschrift",
        "Grund des Antrags",
        "Anzahl Personen",
        "Gewünschter Beginn",
    ),
    (
        "Surname",
        "First name",
        "Date of birth",
        "Address",
        "Postcode",
        "Telephone",
        "Email",
        "Nationality",
        "Marital status",
        "Occupation",
        "Policy number",
        "Account number",
        "Date",
        "Signature",
        "Reason for request",
        "Number of persons",
        "Preferred start date",
    ),
)

FORM_CHOICES: Pair = (
    (
        "ja",
        "nein",
        "ledig",
        "verheiratet",
        "männlich",
        "weiblich",
        "divers",
        "Neuantrag",
        "Änderung",
        "per Post",
        "per E-Mail",
    ),
    (
        "yes",
        "no",
        "single",
        "married",
        "male",
        "female",
        "other",
        "new application",
        "change",
        "by post",
        "by email",
    ),
)

FORM_HINTS: Pair = (
    (
        "Bitte in Druckbuchstaben ausfüllen.",
        "Zutreffendes bitte ankreuzen.",
        "Felder mit * sind Pflichtfelder.",
        "Bitte vollständig ausgefüllt zurücksenden an:",
    ),
    (
        "Please complete in block capitals.",
        "Tick the boxes that apply.",
        "Fields marked * are required.",
        "Please return the completed form to:",
    ),
)

RECEIPT_WORDS: Pair = (
    (
        "SUMME",
        "Summe EUR",
        "Bar",
        "Gegeben",
        "Rückgeld",
        "EC-Karte",
        "Kartenzahlung",
        "MwSt",
        "Netto",
        "Brutto",
        "Vielen Dank für Ihren Einkauf",
        "Bon-Nr.",
        "Kasse",
        "Bediener",
        "Steuer-Nr.",
        "TSE-Signatur",
        "Es bediente Sie",
    ),
    (
        "TOTAL",
        "Subtotal",
        "Cash",
        "Tendered",
        "Change",
        "Card",
        "Contactless",
        "VAT",
        "Net",
        "Gross",
        "Thank you for shopping with us",
        "Receipt no.",
        "Till",
        "Operator",
        "VAT reg no.",
        "Auth code",
        "You were served by",
    ),
)

NOTE_LINES: Pair = (
    (
        "bitte Milch, Brot und Eier mitbringen",
        "Anruf von Herrn {last}, bitte zurückrufen",
        "Termin beim Arzt am {date}",
        "Schlüssel liegt beim Nachbarn",
        "nicht vergessen: Müll raus",
        "Paket abholen",
        "Rechnung bezahlen bis {date}",
        "Danke für alles!",
        "bin gleich zurück",
        "Geburtstag Oma am {date}",
        "Wasser für die Blumen",
        "Auto in die Werkstatt",
    ),
    (
        "please pick up milk, bread and eggs",
        "Mr {last} called, please ring back",
        "doctor's appointment on {date}",
        "key is with the neighbours",
        "don't forget the bins",
        "collect parcel",
        "pay the bill by {date}",
        "Thanks for everything!",
        "back in five minutes",
        "Grandma's birthday on {date}",
        "water the plants",
        "car to the garage",
    ),
)
