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

JOBS = (
    ("Sachbearbeiter/in Buchhaltung", "accounts assistant"),
    ("Projektleiter/in", "project manager"),
    ("Elektroniker/in", "electrician"),
    ("Kundenberater/in", "customer adviser"),
)

GREETINGS_DE = (
    "Sehr geehrte Damen und Herren,",
    "Sehr geehrte Frau {last},",
    "Sehr geehrter Herr {last},",
    "Guten Tag {first} {last},",
    "Hallo {first},",
)
GREETINGS_EN = (
    "Dear Sir or Madam,",
    "Dear Ms {last},",
    "Dear Mr {last},",
    "Dear {first},",
    "To whom it may concern,",
)
CLOSINGS_DE = ("Mit freundlichen Grüßen", "Freundliche Grüße", "Viele Grüße", "Mit besten Grüßen")
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
REGIONS = (
    ("Nord", "North"),
    ("Süd", "South"),
    ("West", "West"),
    ("Ost", "East"),
    ("DACH", "UK & Ireland"),
    ("Benelux", "Nordics"),
)

# E-mails: (German subject, German body paragraphs, English subject, English paragraphs)
EMAIL_TOPICS: tuple[tuple[str, list[str], str, list[str]], ...] = (
    (
        "Rückfrage zu Ihrem Angebot {number}",
        [
            "vielen Dank für das Angebot, das Sie uns gestern geschickt haben.",
            "Bevor wir den Auftrag freigeben können, hätten wir noch zwei Fragen: Ist die Lieferung "
            "bis zum {date} möglich, und sind die Versandkosten im Preis enthalten?",
            "Eine kurze Rückmeldung bis Ende der Woche wäre super.",
        ],
        "Question about your quote {number}",
        [
            "Thanks for sending over the quote yesterday.",
            "Before we can sign off the order we have two questions: can you deliver by {date}, and "
            "is shipping included in the price?",
            "A quick reply by the end of the week would be great.",
        ],
    ),
    (
        "Terminvorschlag Projektmeeting",
        [
            "wie besprochen schlage ich für unser nächstes Projektmeeting den {date} um 10:00 Uhr "
            "vor.",
            "Agenda: Stand der Umsetzung, offene Punkte aus dem letzten Protokoll, nächste "
            "Schritte. Den Einwahllink schicke ich separat.",
            "Bitte gebt mir kurz Bescheid, ob der Termin passt.",
        ],
        "Proposed date for the project meeting",
        [
            "As discussed, I'd like to suggest {date} at 10am for our next project meeting.",
            "Agenda: progress update, open items from the last minutes, next steps. I'll send the "
            "dial-in link separately.",
            "Please let me know whether that works for you.",
        ],
    ),
    (
        "AW: Rechnung {number}",
        [
            "danke für den Hinweis. Die Rechnung {number} ist bei uns eingegangen und zur Zahlung "
            "freigegeben.",
            "Die Überweisung erfolgt mit dem nächsten Zahllauf am {date}.",
            "Bei Fragen melden Sie sich gerne.",
        ],
        "RE: Invoice {number}",
        [
            "Thanks for the reminder. Invoice {number} has been received and approved for payment.",
            "The transfer will go out with our next payment run on {date}.",
            "Let me know if you have any questions.",
        ],
    ),
    (
        "Ihre Bestellung {number} wurde versandt",
        [
            "gute Nachrichten: Ihre Bestellung {number} hat unser Lager verlassen.",
            "Die Sendung wird voraussichtlich am {date} zugestellt. Den aktuellen Status können Sie "
            "jederzeit über die Sendungsverfolgung abrufen.",
            "Vielen Dank für Ihren Einkauf!",
        ],
        "Your order {number} has shipped",
        [
            "Good news: your order {number} is on its way.",
            "It should arrive on {date}. You can follow your parcel at any time with the tracking "
            "link.",
            "Thank you for shopping with us!",
        ],
    ),
    (
        "Urlaubsvertretung vom {date}",
        [
            "ich bin ab dem {date} für zwei Wochen im Urlaub.",
            "In dringenden Fällen wenden Sie sich bitte an {name}, die/der mich in dieser Zeit "
            "vertritt.",
            "Nach meiner Rückkehr melde ich mich umgehend bei Ihnen.",
        ],
        "Out of office from {date}",
        [
            "I'll be on leave for two weeks from {date}.",
            "For anything urgent please contact {name}, who is covering for me.",
            "I'll get back to you as soon as I return.",
        ],
    ),
)

EMAIL_SIGNOFFS_DE = ("Viele Grüße", "Beste Grüße", "Freundliche Grüße", "LG", "Gruß")
EMAIL_SIGNOFFS_EN = ("Best regards,", "Kind regards,", "Cheers,", "Thanks,", "Best,")

# Contracts: kinds with parties' roles, and clauses (German heading, German sentences,
# English heading, English sentences)
CONTRACT_KINDS = (
    (
        "Dienstleistungsvertrag",
        "Service Agreement",
        ("Auftraggeber", "Auftragnehmer"),
        ("Client", "Contractor"),
    ),
    (
        "Mietvertrag für Gewerberäume",
        "Commercial Lease Agreement",
        ("Vermieter", "Mieter"),
        ("Landlord", "Tenant"),
    ),
    (
        "Arbeitsvertrag",
        "Employment Contract",
        ("Arbeitgeber", "Arbeitnehmer"),
        ("Employer", "Employee"),
    ),
    (
        "Geheimhaltungsvereinbarung",
        "Non-Disclosure Agreement",
        ("Offenlegende Partei", "Empfangende Partei"),
        ("Disclosing Party", "Receiving Party"),
    ),
    (
        "Wartungsvertrag",
        "Maintenance Agreement",
        ("Kunde", "Dienstleister"),
        ("Customer", "Service Provider"),
    ),
)
CONTRACT_CLAUSES: tuple[tuple[str, list[str], str, list[str]], ...] = (
    (
        "Vertragsgegenstand",
        [
            "Gegenstand dieses Vertrags ist die Erbringung der in Anlage 1 beschriebenen Leistungen.",
            "Änderungen des Leistungsumfangs bedürfen einer schriftlichen Vereinbarung.",
            "Die Anlagen sind Bestandteil dieses Vertrags.",
        ],
        "Subject matter",
        [
            "The subject of this agreement is the provision of the services described in Schedule 1.",
            "Any change to the scope of services must be agreed in writing.",
            "The schedules form part of this agreement.",
        ],
    ),
    (
        "Vertragsdauer und Kündigung",
        [
            "Der Vertrag beginnt am {date} und wird auf unbestimmte Zeit geschlossen.",
            "Er kann von beiden Parteien mit einer Frist von drei Monaten zum Quartalsende "
            "gekündigt werden.",
            "Das Recht zur außerordentlichen Kündigung aus wichtigem Grund bleibt unberührt.",
        ],
        "Term and termination",
        [
            "This agreement commences on {date} and continues for an indefinite period.",
            "Either party may terminate it by giving three months' notice to the end of a quarter.",
            "The right to terminate for good cause remains unaffected.",
        ],
    ),
    (
        "Vergütung",
        [
            "Die monatliche Vergütung beträgt {amount} zuzüglich der gesetzlichen Umsatzsteuer.",
            "Rechnungen sind innerhalb von 14 Tagen nach Zugang ohne Abzug zur Zahlung fällig.",
            "Reisekosten werden nur nach vorheriger Zustimmung erstattet.",
        ],
        "Remuneration",
        [
            "The monthly fee is {amount} plus VAT at the applicable rate.",
            "Invoices are payable in full within 14 days of receipt.",
            "Travel expenses are reimbursed only with prior approval.",
        ],
    ),
    (
        "Pflichten der Parteien",
        [
            "Die Parteien arbeiten vertrauensvoll zusammen und informieren sich unverzüglich über "
            "alle Umstände, die die Vertragserfüllung beeinträchtigen können.",
            "Jede Partei benennt einen verantwortlichen Ansprechpartner.",
        ],
        "Obligations of the parties",
        [
            "The parties shall cooperate in good faith and inform each other without delay of any "
            "circumstances that may affect performance.",
            "Each party shall appoint a responsible contact person.",
        ],
    ),
    (
        "Haftung",
        [
            "Die Haftung für leichte Fahrlässigkeit ist ausgeschlossen, soweit nicht wesentliche "
            "Vertragspflichten verletzt werden.",
            "Die Haftung ist der Höhe nach auf den vertragstypischen, vorhersehbaren Schaden "
            "begrenzt.",
            "Die Haftung nach dem Produkthaftungsgesetz bleibt unberührt.",
        ],
        "Liability",
        [
            "Liability for slight negligence is excluded unless essential contractual obligations "
            "are breached.",
            "Liability is limited to the foreseeable damage typical for this type of agreement.",
            "Statutory liability that cannot be excluded remains unaffected.",
        ],
    ),
    (
        "Vertraulichkeit",
        [
            "Die Parteien verpflichten sich, alle vertraulichen Informationen geheim zu halten.",
            "Diese Pflicht besteht auch nach Beendigung des Vertrags für weitere fünf Jahre fort.",
        ],
        "Confidentiality",
        [
            "The parties undertake to keep all confidential information secret.",
            "This obligation survives termination of the agreement for a further five years.",
        ],
    ),
    (
        "Datenschutz",
        [
            "Die Parteien beachten die Vorschriften der DSGVO und des BDSG.",
            "Soweit personenbezogene Daten im Auftrag verarbeitet werden, schließen die Parteien "
            "einen gesonderten Auftragsverarbeitungsvertrag.",
        ],
        "Data protection",
        [
            "The parties shall comply with applicable data protection law, including the UK GDPR.",
            "Where personal data is processed on behalf of the other party, a separate data "
            "processing agreement shall be concluded.",
        ],
    ),
    (
        "Schlussbestimmungen",
        [
            "Änderungen und Ergänzungen dieses Vertrags bedürfen der Schriftform.",
            "Sollte eine Bestimmung unwirksam sein, bleibt die Wirksamkeit der übrigen "
            "Bestimmungen unberührt.",
            "Gerichtsstand ist {city}. Es gilt das Recht der Bundesrepublik Deutschland.",
        ],
        "Final provisions",
        [
            "Amendments to this agreement must be made in writing.",
            "Should any provision be invalid, the validity of the remaining provisions shall not be "
            "affected.",
            "This agreement is governed by the laws of England and Wales; the courts of {city} have "
            "jurisdiction.",
        ],
    ),
)
