"""Wording banks for letters, e-mails and other prose documents (German and English).

Placeholders: {company}, {name}, {date}, {number}, {amount}, {city}, {product}.
"""

from __future__ import annotations

# topic -> (German subject, German paragraphs, English subject, English paragraphs)
LETTER_TOPICS: dict[str, tuple[str, list[str], str, list[str]]] = {
    "termination": (
        "Kündigung des Vertrags Nr. {number}",
        [
            "hiermit kündige ich den oben genannten Vertrag fristgerecht zum nächstmöglichen "
            "Zeitpunkt.",
            "Bitte bestätigen Sie mir den Eingang dieser Kündigung sowie das Datum, zu dem der "
            "Vertrag endet, schriftlich.",
            "Einer Verlängerung oder einem Anbieterwechsel durch Ihr Haus widerspreche ich "
            "ausdrücklich. Die Einzugsermächtigung erlischt mit Vertragsende.",
            "Sollten noch Guthaben bestehen, überweisen Sie diese bitte auf mein Ihnen bekanntes "
            "Konto.",
        ],
        "Cancellation of contract no. {number}",
        [
            "I am writing to give notice that I wish to cancel the above contract with effect "
            "from the earliest possible date.",
            "Please confirm receipt of this notice in writing, together with the date on which "
            "the contract will end.",
            "I do not consent to any automatic renewal. The direct debit mandate will be "
            "withdrawn once the contract has ended.",
            "Any remaining credit should be refunded to the account you hold on file.",
        ],
    ),
    "inquiry": (
        "Anfrage zu {product}",
        [
            "wir interessieren uns für Ihr Angebot und bitten um ein unverbindliches Angebot "
            "für die unten beschriebenen Leistungen.",
            "Bitte teilen Sie uns Preise, Lieferzeiten und Zahlungsbedingungen mit. Eine "
            "Lieferung wäre ab dem {date} wünschenswert.",
            "Für Rückfragen steht Ihnen unser Einkauf gerne telefonisch zur Verfügung.",
            "Wir freuen uns auf Ihre Antwort und eine gute Zusammenarbeit.",
        ],
        "Enquiry regarding {product}",
        [
            "We are interested in your products and would be grateful for a quotation for the "
            "services described below.",
            "Please let us know your prices, delivery times and payment terms. Delivery from "
            "{date} onwards would suit us best.",
            "Our purchasing team will be happy to answer any questions by phone.",
            "We look forward to hearing from you.",
        ],
    ),
    "reminder": (
        "Zahlungserinnerung zur Rechnung {number}",
        [
            "sicher haben Sie in der Hektik des Alltags übersehen, dass unsere Rechnung "
            "{number} vom {date} noch offen ist.",
            "Wir bitten Sie, den offenen Betrag von {amount} innerhalb der nächsten sieben Tage "
            "zu begleichen.",
            "Sollten Sie die Zahlung bereits veranlasst haben, betrachten Sie dieses Schreiben "
            "bitte als gegenstandslos.",
        ],
        "Payment reminder for invoice {number}",
        [
            "Our records show that invoice {number} dated {date} has not yet been paid.",
            "We would be grateful if you could settle the outstanding amount of {amount} within "
            "the next seven days.",
            "If you have already arranged payment, please disregard this letter.",
        ],
    ),
    "appointment": (
        "Bestätigung Ihres Termins am {date}",
        [
            "vielen Dank für Ihre Terminanfrage. Gerne bestätigen wir Ihnen den vereinbarten "
            "Termin am {date} in unseren Räumen in {city}.",
            "Bitte bringen Sie die relevanten Unterlagen sowie einen gültigen Ausweis mit.",
            "Falls Sie den Termin nicht wahrnehmen können, sagen Sie bitte spätestens 24 Stunden "
            "vorher ab.",
        ],
        "Confirmation of your appointment on {date}",
        [
            "Thank you for getting in touch. We are pleased to confirm your appointment on "
            "{date} at our offices in {city}.",
            "Please bring the relevant documents and a valid form of identification.",
            "If you are unable to attend, kindly let us know at least 24 hours in advance.",
        ],
    ),
    "complaint": (
        "Reklamation Lieferung vom {date}",
        [
            "leider müssen wir Ihnen mitteilen, dass die Lieferung vom {date} unvollständig und "
            "teilweise beschädigt bei uns eingegangen ist.",
            "Betroffen sind mehrere Positionen der Bestellung {number}. Fotos der Schäden haben "
            "wir diesem Schreiben beigefügt.",
            "Wir bitten um kurzfristige Ersatzlieferung bzw. eine entsprechende Gutschrift.",
            "Bis zur Klärung behalten wir uns vor, die Zahlung zurückzuhalten.",
        ],
        "Complaint regarding delivery of {date}",
        [
            "We regret to inform you that the delivery of {date} arrived incomplete and partly "
            "damaged.",
            "Several items of order {number} are affected. Photographs of the damage are "
            "enclosed with this letter.",
            "Please arrange a replacement delivery or issue a credit note at your earliest "
            "convenience.",
            "We reserve the right to withhold payment until the matter has been resolved.",
        ],
    ),
    "rent": (
        "Anpassung der Nebenkostenvorauszahlung",
        [
            "aufgrund der gestiegenen Betriebskosten passen wir die monatliche Vorauszahlung für "
            "Ihre Wohnung ab dem {date} an.",
            "Die neue Vorauszahlung beträgt {amount} pro Monat. Die Abrechnung des Vorjahres "
            "liegt diesem Schreiben bei.",
            "Bitte passen Sie Ihren Dauerauftrag entsprechend an. Bei Fragen erreichen Sie die "
            "Hausverwaltung zu den üblichen Bürozeiten.",
        ],
        "Adjustment of your service charge",
        [
            "Due to increased operating costs, the monthly service charge for your flat will be "
            "adjusted with effect from {date}.",
            "The new monthly payment is {amount}. Last year's statement is enclosed with this "
            "letter.",
            "Please update your standing order accordingly. The property management team is "
            "available during normal office hours.",
        ],
    ),
    "invitation": (
        "Einladung zur Mitgliederversammlung",
        [
            "hiermit laden wir Sie herzlich zu unserer ordentlichen Mitgliederversammlung am "
            "{date} in {city} ein.",
            "Auf der Tagesordnung stehen der Bericht des Vorstands, der Kassenbericht sowie die "
            "Neuwahl des Vorstands.",
            "Anträge zur Tagesordnung reichen Sie bitte bis spätestens zwei Wochen vor der "
            "Versammlung schriftlich ein.",
        ],
        "Invitation to the annual general meeting",
        [
            "We are pleased to invite you to our annual general meeting on {date} in {city}.",
            "The agenda includes the board's report, the financial statement and the election "
            "of the new committee.",
            "Motions for the agenda should be submitted in writing no later than two weeks "
            "before the meeting.",
        ],
    ),
    "application": (
        "Bewerbung als {product}",
        [
            "mit großem Interesse habe ich Ihre Stellenanzeige gelesen und bewerbe mich hiermit "
            "um die ausgeschriebene Position.",
            "In meiner bisherigen Tätigkeit bei der {company} konnte ich umfangreiche Erfahrung "
            "sammeln und Verantwortung für mehrere Projekte übernehmen.",
            "Über die Einladung zu einem persönlichen Gespräch würde ich mich sehr freuen.",
        ],
        "Application for the position of {product}",
        [
            "I read your job advertisement with great interest and would like to apply for the "
            "position.",
            "In my current role at {company} I have gained broad experience and taken "
            "responsibility for several projects.",
            "I would welcome the opportunity to discuss my application with you in person.",
        ],
    ),
}

JOBS = (("Sachbearbeiter/in Buchhaltung", "accounts assistant"),
        ("Projektleiter/in", "project manager"),
        ("Elektroniker/in", "electrician"),
        ("Kundenberater/in", "customer adviser"))

GREETINGS_DE = ("Sehr geehrte Damen und Herren,", "Sehr geehrte Frau {last},",
                "Sehr geehrter Herr {last},", "Guten Tag {first} {last},", "Hallo {first},")
GREETINGS_EN = ("Dear Sir or Madam,", "Dear Ms {last},", "Dear Mr {last},", "Dear {first},",
                "To whom it may concern,")
CLOSINGS_DE = ("Mit freundlichen Grüßen", "Freundliche Grüße", "Viele Grüße",
               "Mit besten Grüßen")
CLOSINGS_EN = ("Yours faithfully,", "Yours sincerely,", "Kind regards,", "Best regards,")

# Reports: kinds (German, English), section headings and sentences with {pct}, {year},
# {region}, {amount}, {n} placeholders.
REPORT_KINDS = (
    ("Quartalsbericht Q{q} {year}", "Quarterly Report Q{q} {year}"),
    ("Projektstatusbericht", "Project Status Report"),
    ("Jahresbericht {year}", "Annual Report {year}"),
    ("Marktanalyse {region}", "Market Analysis {region}"),
    ("Prüfbericht Nr. {n}", "Inspection Report No. {n}"),
    ("Nachhaltigkeitsbericht {year}", "Sustainability Report {year}"),
)
REPORT_SECTIONS = (
    ("Zusammenfassung", "Executive Summary"),
    ("Einleitung", "Introduction"),
    ("Ausgangslage", "Background"),
    ("Umsatzentwicklung", "Revenue Development"),
    ("Kostenstruktur", "Cost Structure"),
    ("Ergebnisse", "Results"),
    ("Methodik", "Methodology"),
    ("Risiken und Chancen", "Risks and Opportunities"),
    ("Ausblick", "Outlook"),
    ("Empfehlungen", "Recommendations"),
    ("Personal", "Staff"),
    ("Fazit", "Conclusion"),
)
REPORT_SENTENCES_DE = (
    "Der Umsatz stieg im Berichtszeitraum um {pct} % gegenüber dem Vorjahr.",
    "Die Region {region} entwickelte sich dabei überdurchschnittlich.",
    "Die Kosten für Material und Energie lagen mit {amount} über dem Plan.",
    "Im Geschäftsjahr {year} wurden insgesamt {n} neue Kunden gewonnen.",
    "Die Projektphase zwei wurde termingerecht abgeschlossen.",
    "Verzögerungen bei Zulieferern führten zu einem Rückstand von etwa zwei Wochen.",
    "Die Mitarbeiterzahl erhöhte sich auf {n} Beschäftigte.",
    "Für das kommende Jahr rechnen wir mit einem moderaten Wachstum von {pct} %.",
    "Die Prüfung ergab keine wesentlichen Mängel; kleinere Abweichungen wurden dokumentiert.",
    "Die Kundenzufriedenheit liegt laut Umfrage bei {pct} %.",
    "Investitionen in Digitalisierung beliefen sich auf {amount}.",
    "Die Ergebnisse sind in der folgenden Tabelle zusammengefasst.",
    "Abbildung 1 zeigt die Entwicklung der Kennzahlen im Zeitverlauf.",
    "Die Liquidität des Unternehmens ist weiterhin gesichert.",
    "Der Anteil erneuerbarer Energien am Verbrauch betrug {pct} %.",
    "Wir empfehlen, die Maßnahmen im nächsten Quartal fortzuführen.",
)
REPORT_SENTENCES_EN = (
    "Revenue grew by {pct}% compared with the previous year.",
    "The {region} region performed above average.",
    "Material and energy costs of {amount} exceeded the budget.",
    "A total of {n} new customers were acquired in {year}.",
    "Phase two of the project was completed on schedule.",
    "Supplier delays caused a backlog of roughly two weeks.",
    "Headcount increased to {n} employees.",
    "For the coming year we expect moderate growth of {pct}%.",
    "The inspection found no significant defects; minor deviations were recorded.",
    "Customer satisfaction stands at {pct}% according to the survey.",
    "Investment in digitalisation amounted to {amount}.",
    "The results are summarised in the table below.",
    "Figure 1 shows how the key figures developed over time.",
    "The company's liquidity remains secure.",
    "Renewable energy accounted for {pct}% of consumption.",
    "We recommend continuing these measures in the next quarter.",
)
REGIONS = (("Nord", "North"), ("Süd", "South"), ("West", "West"), ("Ost", "East"),
           ("DACH", "UK & Ireland"), ("Benelux", "Nordics"))
