"""Things that appear on business documents: products, services, shop items.

Each entry: (German text, English text, unit key, price range, reduced-rate flag).
"""

from __future__ import annotations

UNITS = {
    "pc": ("Stk.", "pcs"),
    "h": ("Std.", "hrs"),
    "d": ("Tag", "days"),
    "m": ("m", "m"),
    "kg": ("kg", "kg"),
    "l": ("l", "l"),
    "flat": ("pausch.", "flat"),
    "box": ("Karton", "box"),
    "month": ("Monat", "month"),
    "lic": ("Lizenz", "licence"),
}

Product = tuple[str, str, str, tuple[float, float], bool]

PRODUCTS: tuple[Product, ...] = (
    ("Beratungsleistung Projektmanagement", "Project management consulting", "h", (85, 160), False),
    ("Softwareentwicklung Backend", "Backend software development", "h", (75, 140), False),
    (
        "Installation und Inbetriebnahme",
        "Installation and commissioning",
        "flat",
        (120, 900),
        False,
    ),
    (
        "Wartungsvertrag Server (monatlich)",
        "Server maintenance contract (monthly)",
        "month",
        (90, 450),
        False,
    ),
    ('Laptop 14" i7, 16 GB RAM', 'Laptop 14" i7, 16 GB RAM', "pc", (780, 1600), False),
    ("Monitor 27 Zoll IPS", "27-inch IPS monitor", "pc", (180, 420), False),
    ("Tastatur kabellos", "Wireless keyboard", "pc", (25, 90), False),
    ("Druckerpapier A4, 500 Blatt", "A4 printer paper, 500 sheets", "box", (4, 9), False),
    ("Toner schwarz XL", "Black toner cartridge XL", "pc", (45, 130), False),
    ("Bürostuhl ergonomisch", "Ergonomic office chair", "pc", (190, 620), False),
    ("Schreibtisch höhenverstellbar", "Height-adjustable desk", "pc", (350, 900), False),
    ("Kabelkanal weiß 2 m", "Cable duct white 2 m", "pc", (6, 19), False),
    ("Montagearbeiten vor Ort", "On-site assembly work", "h", (45, 85), False),
    ("Anfahrtspauschale", "Call-out charge", "flat", (25, 95), False),
    ("Reinigung Büroflächen", "Office cleaning", "h", (22, 38), False),
    ("Fachbuch Steuerrecht 2024", "Tax law handbook 2024", "pc", (39, 89), True),
    ("Zeitschriften-Abonnement", "Magazine subscription", "month", (8, 25), True),
    ("Kaffeebohnen 1 kg", "Coffee beans 1 kg", "kg", (14, 32), True),
    ("Mineralwasser 12 x 0,75 l", "Mineral water 12 x 0.75 l", "box", (6, 12), True),
    ("Obstkorb Büro", "Office fruit basket", "pc", (19, 45), True),
    ("Catering Mittagessen", "Lunch catering", "pc", (12, 28), True),
    ("Webhosting Business Paket", "Business web hosting package", "month", (9, 49), False),
    ("Softwarelizenz Office Suite", "Office suite software licence", "lic", (79, 299), False),
    ("Schulung Datenschutz (DSGVO)", "Data protection training (GDPR)", "d", (450, 1200), False),
    ("Übersetzung Fachtext", "Specialist translation", "pc", (60, 480), False),
    ("Fotografie Produktbilder", "Product photography", "h", (70, 150), False),
    ("Grafikdesign Flyer", "Flyer graphic design", "flat", (150, 750), False),
    ("Druck Visitenkarten 500 Stk.", "Business cards print run of 500", "pc", (29, 89), False),
    ("Kupferrohr 15 mm", "Copper pipe 15 mm", "m", (6, 14), False),
    ("Heizkörperventil", "Radiator valve", "pc", (18, 55), False),
    ("Elektroinstallation Steckdose", "Electrical socket installation", "pc", (35, 80), False),
    ("Malerarbeiten Wandfläche", "Wall painting", "m", (8, 18), False),
    ("Fliesen verlegen", "Tile laying", "m", (35, 70), False),
    ("Entsorgung Altmaterial", "Disposal of old material", "flat", (40, 250), False),
    ("Versandkosten", "Shipping", "flat", (4.9, 19.9), False),
    ("Router WLAN 6", "Wi-Fi 6 router", "pc", (89, 260), False),
    ("Netzwerkkabel Cat 6, 5 m", "Cat 6 network cable, 5 m", "pc", (4, 12), False),
    ("Externe Festplatte 2 TB", "External hard drive 2 TB", "pc", (65, 140), False),
    ("Kinderbuch Bilderbuch", "Children's picture book", "pc", (9, 19), True),
    ("Lebensmittelpaket Veranstaltung", "Event food package", "pc", (35, 180), True),
)

# Shop items for till receipts: (German, English, price range, reduced-rate flag)
ShopItem = tuple[str, str, tuple[float, float], bool]

GROCERIES: tuple[ShopItem, ...] = (
    ("Vollmilch 3,5%", "Whole milk 1l", (0.99, 1.59), True),
    ("Butter 250g", "Butter 250g", (1.79, 3.29), True),
    ("Bio Eier 10er", "Free range eggs x10", (2.49, 4.29), True),
    ("Roggenbrot", "Sourdough bread", (1.99, 3.99), True),
    ("Bananen", "Bananas", (0.99, 2.49), True),
    ("Äpfel Elstar", "Gala apples", (1.49, 3.49), True),
    ("Tomaten", "Tomatoes", (1.29, 3.99), True),
    ("Gouda jung", "Cheddar mature", (1.89, 4.49), True),
    ("Spaghetti 500g", "Spaghetti 500g", (0.89, 2.29), True),
    ("Kaffee gemahlen", "Ground coffee", (4.49, 8.99), True),
    ("Joghurt Natur", "Natural yoghurt", (0.49, 1.49), True),
    ("Mineralwasser 6x1,5l", "Sparkling water 6x1.5l", (1.99, 4.49), True),
    ("Orangensaft 1l", "Orange juice 1l", (1.29, 2.99), True),
    ("Hähnchenbrust", "Chicken breast", (4.99, 8.99), True),
    ("Schokolade Vollmilch", "Milk chocolate bar", (0.99, 2.49), True),
    ("Spülmittel", "Washing-up liquid", (0.95, 2.49), False),
    ("Toilettenpapier 8 Rollen", "Toilet roll 9 pack", (2.99, 5.49), False),
    ("Waschmittel", "Laundry detergent", (3.99, 9.99), False),
    ("Zahnpasta", "Toothpaste", (0.89, 2.99), False),
    ("Batterien AA 4er", "AA batteries 4 pack", (2.99, 6.99), False),
    ("Pfandbon", "Bottle deposit", (0.25, 3.0), False),
    ("Rotwein trocken", "Red wine", (3.99, 12.99), False),
    ("Bier 0,5l", "Lager 500ml", (0.79, 1.99), False),
    ("Blumenstrauß", "Flower bouquet", (4.99, 14.99), True),
    ("Tragetasche", "Carrier bag", (0.1, 0.5), False),
)

CAFE: tuple[ShopItem, ...] = (
    ("Cappuccino", "Cappuccino", (2.8, 4.2), False),
    ("Latte Macchiato", "Flat white", (3.2, 4.6), False),
    ("Espresso", "Espresso", (1.9, 2.8), False),
    ("Croissant", "Croissant", (1.6, 2.9), True),
    ("Käsekuchen", "Cheesecake slice", (3.2, 4.9), True),
    ("Bagel Lachs", "Salmon bagel", (5.9, 8.5), True),
    ("Tomatensuppe", "Tomato soup", (4.5, 6.9), False),
    ("Club Sandwich", "Club sandwich", (7.9, 11.5), False),
    ("Apfelschorle 0,4l", "Sparkling apple 330ml", (2.9, 3.9), False),
    ("Tee", "Pot of tea", (2.5, 3.6), False),
)

HARDWARE: tuple[ShopItem, ...] = (
    ("Schrauben 4x40 100St", "Wood screws 4x40 x100", (3.49, 7.99), False),
    ("Dübel 8mm 50St", "Wall plugs 8mm x50", (2.49, 5.99), False),
    ("Malerkrepp 50m", "Masking tape 50m", (2.99, 6.49), False),
    ("Wandfarbe weiß 10l", "White emulsion 10l", (29.99, 59.99), False),
    ("Pinselset", "Brush set", (5.99, 14.99), False),
    ("Silikon transparent", "Clear silicone sealant", (4.99, 9.99), False),
    ("LED Lampe E27", "LED bulb E27", (2.99, 8.99), False),
    ("Verlängerungskabel 5m", "Extension lead 5m", (7.99, 19.99), False),
    ("Gartenschlauch 20m", "Garden hose 20m", (14.99, 39.99), False),
    ("Blumenerde 40l", "Compost 40l", (4.99, 9.99), False),
)
