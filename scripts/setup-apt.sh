#!/usr/bin/env bash
# Installs the Debian packages prefect-docai needs, only when one is missing (idempotent).
set -euo pipefail
PACKAGES=(
  tesseract-ocr tesseract-ocr-all   # OCR engine + every language pack (~160, for languageHint)
  libzbar0                          # pyzbar: QR / barcode separator sheets
  poppler-utils                     # pdftoppm / pdftotext, benchmarks and debugging
  postgresql                        # server binaries for the PostgreSQL tests (tests/api/postgres.py)
  chromium                          # headless browser for the web platform tests (Playwright, executable_path)
  fonts-dejavu-core fonts-dejavu-extra fonts-liberation  # generated documents
  fonts-dkg-handwriting fonts-breip fonts-femkeklaver fonts-kristi fonts-humor-sans  # generated handwriting
)
missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
echo "apt: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
