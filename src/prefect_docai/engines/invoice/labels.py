"""Label dictionaries (German, English, French, Dutch, Italian, Spanish) as
regular expressions over folded (lower-case, blank-collapsed) segment text."""

from __future__ import annotations

import re

from prefect_docai.engines.extract.labels import rx as _rx

_I = re.IGNORECASE


_OTHER_DOCUMENT_WORDS = r"bestell|order|auftrag|liefer|vertrag|kunde|customer|delivery|commande"
_OTHER_DOCUMENT = rf"(?!{_OTHER_DOCUMENT_WORDS})"
"""Inside a title line: words that make the number/date another document's."""
_OTHER_NUMBER = rf"(?!{_OTHER_DOCUMENT_WORDS}|date|datum|account|konto|client|klant|cliente)"
"""Inside a title line before "No.": words that make the number another field's ("Invoice
Date Mar 19, 2026 Account no. 66291")."""


_SIGN_READ_AS = r"n\.?[2?](?=\s|$|:)"
"""The number sign of "Factura nº", "n.º", "N° de facture" as Tesseract often reads it on a
scan: the raised º or ° taken for a 2 or a ? glued to the n ("Factura n.2:", "N? factura",
"N2 de factura"). Only as a whole token beside the invoice word: "n. 2", "n.25" or a lone
"n.2" may be the number itself."""

INVOICE_NUMBER = _rx(
    r"rechnungs?[\s-]*(?:nummer|nr\.?|no\.?)",
    r"rechnung\s*(?:nr\.?|#|no\.?|n[°o])",
    r"gutschrift(?:s-?nummer|\s*nr\.?)",
    r"beleg[\s-]*(?:nummer|nr\.?)",
    r"invoice\s*(?:number|no\.?|#|nr\.?|n[°o]\.?|id)",
    r"\binv\.?\s*(?:no\.?|#)",
    r"credit\s*note\s*(?:number|no\.?|#)",
    r"facture\s*(?:n[°o]\.?|num[ée]ro|#)",
    r"num[ée]ro\s+de\s+(?:la\s+)?facture",
    r"n[°o]\s*(?:de\s*)?facture",
    rf"facture\s*{_SIGN_READ_AS}",
    rf"{_SIGN_READ_AS}\s*(?:de\s*)?facture",
    r"avoir\s*n[°o]",
    r"factuur\s*(?:nummer|nr\.?)",
    r"factuurnummer",
    r"r[ée]f(?:[ée]rence)?\.?\s*(?:de\s*(?:la\s*)?)?facture",
    r"fattura\s*(?:n\.?|nr\.?|n[°o]|num(?:ero|\.))(?=\s|$|\d|:)",
    r"(?:numero|n\.|nr\.?)\s*(?:della\s*)?fattura",
    r"(?:numero|n\.)\s*documento",
    r"documento\s*n\.",
    r"factura\s*(?:n\.?\s*[ºo°]\.?|n[úu]m(?:ero|\.)?)(?=\s|$|\d|:)",
    r"(?:n\.?\s*[ºo°]\.?|n[úu]mero|num\.)\s*(?:de\s*)?factura",
    rf"factura\s*{_SIGN_READ_AS}",
    rf"{_SIGN_READ_AS}\s*(?:de\s*)?factura",
    r"document\s*(?:no\.?|number)",
    r"bill\s*(?:no\.?|number)",
    r"receipt\s*(?:no\.?|number)",
)
INVOICE_NUMBER_IN_TITLE = _rx(
    rf"^(?:\S+\s)?(?:handels)?rechnung\b(?:{_OTHER_NUMBER}[^:]){{0,40}}?\s(?:nr\.?|no\.?|#)(?=\s|$)",
    rf"^(?:\S+\s)?(?:invoice|facture|factuur|fattura|factura)\b(?:{_OTHER_NUMBER}[^:]){{0,30}}?"
    r"\s(?:no\.?|nr\.?|n°|n\.|n\.?º|n\.?º\.?|#)(?=\s|$)",
)
ADDRESS_KEY = _rx(
    r"^(?:name|firma|anschrift|adresse|address|stra(?:ß|ss)e|street|ort|city|"
    r"nom|adres|naam)\s*:?$"
)
ORDER_NUMBER = _rx(
    r"^purchase\s*order(?:\s*(?:id|no\.?|number))?\s*:",
    r"^bestellnummer",
    r"^bestellung\s*nr",
    r"^order\s*(?:id|no\.?|number)\s*:",
    r"^bon\s*de\s*commande",
    r"^order\s*(?:change|response)\s*:",
    r"^(?:purchase\s*)?order\s*(?:change|response)\s*(?:id|no)",
)
"""Order documents (Order-X) carry an order number where an invoice has its number."""
GENERIC_NUMBER = _rx(
    r"^(?:nr|no|n[°º]|#|number|nummer|num[ée]ro|n[úu]mero|ref|r[ée]f)\.?\s*:?(?=\s|$)",
)
"""A bare number label ("Nr.", "Number", "N°", "Ref.") opening its line or cell: on an
invoice, most often the invoice's own number (a weak label, used when no better one)."""
INVOICE_TITLE = _rx(
    r"^[^\W\d_]*rechnung\b",
    r"^(?:[^\W\d_]+\s)?(?:rechnung|facture|factuur|fattura|factura)\b",
    r"^faktura\b",
    r"^bill(?=\s*$|\s+\S*\d|\s*(?:no\.?|#|number)(?:\s|$))",
    r"^(?:[^\W\d_]+\s)?invoice\b",
    r"^note\s+d['’]?\s*honoraires\b",
    # fee notes and the plain "note" some languages call an invoice by
    r"^honorar(?:note|abrechnung)\b",
    r"^minuta\s+de\s+honorarios\b",
    r"^parcella\b",
    r"^nota\b(?!\s*:)(?!\s+(?:di|de)\s+cr[ée]dito)",
    r"^[^\W\d_]*factuur\b",
    r"^gutschrift\b",
    r"^credit\s+note\b",
    r"^avoir\b",
)
INVOICE_DATE = _rx(
    r"rechnungsdatum",
    r"invoice\s*date",
    r"date\s*of\s*invoice",
    r"datum\s*der\s*rechnung",
    r"belegdatum",
    r"ausstellungsdatum",
    r"date\s*de\s*(?:la\s*)?factur(?:e|ation)",
    r"date\s*facture",
    r"date\s*d['’]?\s*[ée]mission",
    r"[ée]mise?\s*le\b",
    r"factuurdatum",
    r"(?:datum|date)\s*factuur",
    r"factuur\s*datum",
    r"data\s*(?:della\s*)?fattura",
    r"data\s*(?:di\s*)?emissione",
    r"data\s*documento",
    r"fecha\s*(?:de\s*)?(?:la\s*)?factura",
    r"fecha\s*(?:de\s*)?(?:emisi[óo]n|expedici[óo]n)",
    r"issue\s*date",
    r"date\s*issued",
    r"invoice\s*issued",
    r"gutschriftsdatum",
    r"tax\s*point",
    r"date\s*of\s*issue",
    # the day the document was made out: "Created", "Erstellt am", "Établie le"...
    r"\bcreated(?:\s*on)?\b",
    r"\bdate\s*created\b",
    r"erstellt\s*am",
    r"[ée]tablie?\s*le\b",
    r"opgemaakt\s*op",
    r"emess[ao]\s*il\b",
    r"emitid[ao]\s*el\b",
)
GENERIC_DATE = _rx(r"\bdatum\b", r"\bdate\b", r"\bdated\b", r"^den\b", r"^data\b", r"^fecha\b")
INVOICE_DATE_IN_TITLE = _rx(
    rf"(?:rechnung|invoice|facture|factuur|fattura|factura|gutschrift)\b(?:{_OTHER_DOCUMENT}.){{0,60}}?\s"
    r"(?:vom|dated|du|van|del|issued(?:\s+(?:at|on))?)(?=\s|$)",
)
DUE_DATE = _rx(
    r"f[äa]llig(?:keit(?:sdatum)?|\s*am|\s*bis)?",
    r"zahlbar\s*bis",
    r"zahlungsziel",
    r"due\s*date",
    r"payment\s*due",
    r"due\s*by",
    r"pay\s*by",
    r"bis\s*zum",
    r"[ée]ch[ée]ance",
    r"vervaldatum",
    r"uiterste\s*betaaldatum",
    r"date\s*limite",
    r"te\s*betalen\s*v[óo]{1,2}r",
    r"[àa]\s*payer\s*avant",
    r"scadenza",
    r"vencimiento",
    r"fecha\s*l[íi]mite",
)
DELIVERY_DATE = _rx(
    r"liefer-?\s*(?:und\s*leistungs)?datum",
    r"leistungsdatum",
    r"lieferdatum",
    r"leistungszeitraum",
    r"delivery\s*date",
    r"date\s*of\s*(?:supply|delivery|service)",
    r"service\s*date",
    r"ship(?:ping|ment)?\s*date",
    r"date\s*(?:of\s*)?ship(?:ped|ment)",
    r"dispatch(?:ed)?\s*date",
    r"supply\s*date",
    r"performance\s*(?:date|period)",
    r"date\s*of\s*performance",
    r"fulfil+ment\s*date",
    r"versanddatum",
    r"ausf[üu]hrungsdatum",
    r"liefer(?:zeitraum|tag)",
    r"date\s*d['’]?\s*exp[ée]dition",
    r"verzenddatum",
    r"data\s*(?:di\s*)?esecuzione",
    r"fecha\s*(?:de\s*)?prestaci[óo]n",
    r"date\s*de\s*livraison",
    r"lever(?:ings)?datum",
    r"service\s*period",
    r"billing\s*period",
    r"period\s*of\s*(?:supply|service)",
    r"date\s*de\s*(?:la\s*)?prestation",
    r"livr[ée]e?s?\s*le\b",
    r"date\s*d['’]?\s*ex[ée]cution",
    r"p[ée]riode",
    r"datum\s*levering",
    r"prestatiedatum",
    r"data\s*(?:di\s*)?(?:consegna|spedizione|ddt)",
    r"\bperiodo\b",
    r"\bper[íi]odo\b",
    r"competenza",
    r"fecha\s*(?:de\s*)?(?:entrega|servicio|env[íi]o|operaci[óo]n)",
)
ORDER_DATE = _rx(
    r"order\s*date",
    r"date\s*of\s*order",
    r"bestell(?:ungs)?datum",
    r"auftragsdatum",
    r"date\s*de\s*(?:la\s*)?commande",
    r"commande\s*du\b",
    r"orderdatum",
    r"besteldatum",
    r"data\s*(?:dell['’]?\s*)?ordine",
    r"ordine\s*del\b",
    r"fecha\s*(?:de\s*)?pedido",
)
"""A date that is not the invoice's: when the order was placed."""
DELIVERY_ADDRESS = _rx(
    r"liefer(?:adresse|anschrift)",
    r"delivery\s*address",
    r"ship\s*to",
    r"adresse\s*de\s*livraison",
    r"afleveradres",
    r"leveringsadres",
)
CURRENCY = _rx(r"w[äa]hrung", r"currency", r"devise", r"valuta")

GROSS = _rx(
    r"brutto",
    r"\binkl\.?",
    r"\bincl\.?",
    r"inclusive",
    r"gesamtbetrag",
    r"rechnungsbetrag",
    # an insurer's premium ("Beitrag") totals: "Rechnungsbeitrag", "Endbeitrag"
    r"(?:rechnungs|end|gesamt)beitrag",
    r"endbetrag",
    r"gesamtsumme",
    r"rechnungssumme(?!\s*ohne)",
    r"bruttosumme",
    r"grand\s*total",
    r"total\s*ttc",
    r"\bttc\b",
    r"total\s*amount",
    r"invoice\s*total",
    r"total\s*(?:incl|inkl)",
    r"totaal(?!\s*excl)",
    r"gesamt(?!\s*netto)",
    r"\btotal\b",
    r"\bsumme\b",
    r"montant\s*total",
    r"\btotale\b",
    r"importe\s*total",
    r"total\s*factura",
    r"factuurbedrag",
    r"totaalbedrag",
    r"toutes\s*taxes",
)
NET = _rx(
    r"netto",
    r"\bnet\b",
    r"zwischensumme",
    r"ohne\s*(?:mwst|ust|steuer)",
    r"exkl",
    r"excl",
    r"sub-?\s*total",
    r"\bht\b",
    r"sous[\s-]*total",
    r"subtotaal",
    r"warenwert",
    r"before\s*tax",
    r"taxable\s*amount",
    r"without\s*(?:vat|tax)",
    r"w/o\s*(?:vat|tax)",
    r"hors\s*tax",
    r"imponibile",
    r"base\s*imponible",
    r"\bneto\b",
    r"sin\s*(?:iva|impuestos)",
    r"senza\s*iva",
    r"iva\s*esclusa",
    r"(?:sans|hors)\s*tva",
    r"zonder\s*btw",
    r"\bex(?:cl(?:uding)?)?\.?\s*(?:vat|gst|tax)\b",
    r"pre-?\s*tax",
)
TAX = _rx(
    r"steuer\b(?!\s*-?(?:nr|nummer|id))",
    r"mwst",
    r"mehrwertsteuer",
    r"umsatzsteuer",
    r"\bust\b",
    r"\bu\.?st\.",
    r"steuerbetrag",
    r"\bvat\b",
    r"\btax\b",
    r"\btaxes\b",
    r"\btva\b",
    r"\bbtw\b",
    r"\bgst\b",
    r"sales\s*tax",
    r"\biva\b",
    r"\bimposta\b",
    r"\bimpuestos?\b",
)
NOT_A_TOTAL = _rx(
    r"id[\s.-]*nr",
    r"\bid\b",
    r"identifikation",
    r"steuer-?\s*nr",
    r"steuernummer",
    r"reg(?:istration)?\.?\s*no",
    r"number",
    r"nummer",
    r"\bnr\b",
    r"tax\s*id",
    r"intracom",
    r"siret",
    r"n[°o]\s*tva",
    r"tva\s*:",
    r"befreit",
    r"exempt",
    r"partita\s*iva",
    r"p\.\s*iva",
    r"\bnif\b",
    r"\bcif\b",
)
AMOUNT_DUE = _rx(
    r"zahlbetrag",
    r"f[äa]lliger\s*betrag",
    r"zu\s*zahlen",
    r"zu\s*zahlender\s*betrag",
    r"amount\s*due",
    r"balance\s*due",
    r"total\s*due",
    r"amount\s*payable",
    r"restbetrag",
    r"offener\s*betrag",
    r"net\s*[àa]\s*payer",
    r"solde\s*[àa]\s*payer",
    r"te\s*betalen",
    r"noch\s*zu\s*zahlen",
    r"due\s*payable",
    r"\bpayable\b",
    r"[àa]\s*payer",
    r"da\s*pagare",
    r"\ba\s*pagare\b",
    r"a\s*pagar\b",
    r"openstaand(?:\s*bedrag)?",
    r"montant\s*d[uû]",
)

SELLER_LABEL = _rx(
    r"^verk[äa]ufer\b",
    r"^lieferant\b",
    r"^rechnungs-?(?:s|er)steller\b",
    r"^absender\b",
    r"^leistungserbringer\b",
    r"^seller\b",
    r"^supplier\b",
    r"^vendor\b",
    r"^from\b",
    r"^vendeur\b",
    r"^fournisseur\b",
    r"^[ée]metteur\b",
    r"^verkoper\b",
    r"^leverancier\b",
    r"^cedente\b",
    r"^fornitore\b",
    r"^mittente\b",
    r"^emisor\b",
    r"^proveedor\b",
    r"^vendedor\b",
    # "from" in German, Dutch, Italian, only as a label standing alone ("Van", "Von:")
    r"^(?:von|van|da)\b(?=\s*:|\s*$)",
)
BUYER_LABEL = _rx(
    r"^k[äa]ufer\b",
    r"^kunde\b",
    r"^rechnungsempf[äa]nger\b",
    r"^leistungsempf[äa]nger\b",
    r"^rechnungsadresse\b",
    r"^rechnung\s+an\b",
    r"^bill(?:ed)?\s+to\b",
    r"^invoice\s+to\b",
    r"^customer\b",
    r"^buyer\b",
    r"^sold\s+to\b",
    r"^client\b",
    r"^destinataire\b",
    r"^factur[ée]\s+[àa]\b",
    r"^adresse\s+de\s+facturation\b",
    r"^klant\b",
    r"^afnemer\b",
    r"^factuuradres\b",
    r"^k[äa]ufer/",
    r"^empf[äa]nger\b",
    r"^cessionario\b",
    r"^committente\b",
    r"^destinatario\b",
    r"^spett\.?\s*le\b",
    r"^cliente\b",
    r"^facturar\s+a\b",
    r"^facturado\s+a\b",
    r"^intestatario\b",
    # "to" in Dutch, German, English, only as a label standing alone ("Aan", "To:")
    r"^(?:aan|an|to)\b(?=\s*:|\s*$)",
)

TAX_NUMBER = _rx(r"steuer[\s-]*(?:nummer|nr\.?)", r"st\.?[\s-]*nr\.?", r"stnr", r"tax\s*number")
IBAN = _rx(r"\biban\b")
BIC = _rx(r"\bbic\b", r"swift", r"bic[\s-]*code")
TERMS = _rx(
    r"zahlungsbedingung",
    r"zahlungsziel",
    r"zahlbar",
    r"payment\s*terms",
    r"terms\s*of\s*payment",
    r"conditions\s*de\s*(?:paiement|r[èe]glement)",
    r"betalingstermijn",
    r"betalingsvoorwaarden",
    r"\bnet\s*\d+\s*days",
    r"innerhalb\s+von\s+\d+",
    r"within\s+\d+\s+days",
    r"skonto",
)

LEGAL_FORM = re.compile(
    r"(?:^|\s)(?:gmbh(?:\s*&\s*co\.?\s*kg)?|ggmbh|ag|kg|ohg|ug(?:\s*\(haftungsbeschränkt\))?|"
    r"e\.\s?k\.|e\.\s?v\.|a\.\s?g\.|gbr|mbh|partg(?:mbb)?|se|kgaa|ltd\.?|limited|inc\.?|llc|"
    r"l\.l\.c\.|llp|l\.l\.p\.|plc|p\.l\.c\.|corp\.?|corporation|company|co\.|b\.\s?v\.|n\.\s?v\.|"
    r"bvba|b\.v\.b\.a\.|sarl|s\.a\.r\.l\.|s\.\s?[àa]\.?\s?r\.\s?l\.|sprl|s\.p\.r\.l\.|sas|sa|s\.a\.|"
    r"eurl|sci|s\.c\.i\.|scop|gmbh\s*&\s*co\.?\s*kg|co\.\s*kg|& co\.? kg|s\.r\.l\.(?:s\.)?|srl|"
    r"srls|spa|s\.p\.a\.|s\.a\.p\.a\.|oy|ab|as|a/s|aps|nv|bv|vof|v\.o\.f\.|commv|comm\.\s?v\.|"
    r"s\.a\.s\.|sasu|snc|s\.n\.c\.|s\.a\.u\.|s\.a\.t\.|s\.l\.(?:u\.|l\.|n\.e\.?|p\.)?|slu|slp|"
    r"s\.coop\.|s\.c\.p\.?|s\.com\.|s\.a\.a\.)"
    # a compound form's chain: "GmbH & Co. KGaA", "AG & Co. KG", "Ltd. & Co. KG"
    r"(?:\s*&\s*co\.?\s*(?:kgaa|kg|ohg))?"
    r"(?=$|[\s,.;)])",
    _I,
)
"""A company's legal form in any of the six languages, a compound one whole (its match
ends where the chain ends: "Ladeck AG & Co. KGaA", not "Ladeck AG")."""
SALUTATION = _rx(r"^(?:herrn?|frau|mr\.?|mrs\.?|ms\.?|monsieur|madame|m\.|mme\.?|dhr\.?|mevr\.?)$")
STREET_WORD = _rx(
    r"stra(?:ß|ss)e\b",
    r"str\.",
    r"weg\b",
    r"platz\b",
    r"allee\b",
    r"gasse\b",
    r"ring\b",
    r"damm\b",
    r"ufer\b",
    r"chaussee\b",
    r"\broad\b",
    r"\bstreet\b",
    r"\blane\b",
    r"\bavenue\b",
    r"\bave\b",
    r"\bdrive\b",
    r"\bway\b",
    r"\brue\b",
    r"\bchemin\b",
    r"\bboulevard\b",
    r"\bplace\b",
    r"\bstraat\b",
    r"\blaan\b",
    r"\bgracht\b",
    r"\bplein\b",
    r"postfach",
    r"p\.?\s?o\.?\s?box",
)
ACCOUNT_HOLDER = _rx(
    r"kontoinhaber",
    r"account\s*(?:holder|name)",
    r"titulaire\s*du\s*compte",
    r"rekeninghouder",
    r"beneficiary",
    r"zahlungsempf[äa]nger",
)
