# prefect-docai — the README's two commands are `make demo` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.docai-installed
EXTRAS := server,s3,gcs,dask,ray,samples,dev

# Tesseract with Debian's OpenMP build burns both cores for no gain; parallelise across
# pages with processes instead (docs/operations.md, "CPU and Tesseract").
export OMP_THREAD_LIMIT := 1
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: setup apt venv demo test test-fast lint docs bench train train-check rapid-models build-deps lock clean

setup: apt venv

apt:
	@bash scripts/setup-apt.sh

venv: $(STAMP)

$(STAMP): pyproject.toml requirements/lock.txt requirements/rapidocr.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check --upgrade "pip>=24" setuptools wheel
	$(BIN)/python -m pip install -q --disable-pip-version-check -c requirements/lock.txt -e ".[$(EXTRAS)]"
	$(BIN)/python -m pip install -q --disable-pip-version-check --no-deps -c requirements/lock.txt -r requirements/rapidocr.txt
	@# pip check, less the one requirement left out on purpose (requirements/rapidocr.txt)
	! $(BIN)/python -m pip check --disable-pip-version-check | grep -v -E '^(rapidocr-onnxruntime [0-9.]+ requires opencv-python, which is not installed\.|No broken requirements found\.)$$'
	@touch $(STAMP)

demo: setup
	$(BIN)/docai demo

lint: setup
	$(BIN)/ruff check src tests benchmarks training
	$(BIN)/mypy --strict src/
	$(BIN)/lint-imports --no-cache --no-logo

# The documentation site (docs/ + API reference from the docstrings) into site/; any
# warning fails the build. Needs no network.
docs: venv
	$(BIN)/mkdocs build --strict

# The tests also rebuild RapidOCR's derived models and compare them with the shipped ones,
# which needs the build-time requirements (onnx).
test: setup lint build-deps
	$(BIN)/python -m pytest -q tests

test-fast: venv
	$(BIN)/python -m pytest -q -x tests

bench: setup
	$(BIN)/python -m benchmarks

# Retrain the shipped models (engines/data/) from the sample generator and the visible
# corpus: the classifier first, the splitter's features depend on it; RapidOCR's space,
# respelling, tail-mark and look-alike scorers before the receipt models, which read its words; the invoice and
# receipt fields' confidence maps last (they read the engines' raw scores). Deterministic.
CORPUS ?= ../shared/corpus
train: setup
	$(BIN)/python -m training.classifier --corpus $(CORPUS)
	$(BIN)/python -m training.splitter --corpus $(CORPUS)
	$(BIN)/python -m training.tables --corpus $(CORPUS)
	OMP_THREAD_LIMIT=1 DOCAI_CORPUS=$(CORPUS) $(BIN)/python -m training.ocr_spaces --write
	OMP_THREAD_LIMIT=1 DOCAI_CORPUS=$(CORPUS) $(BIN)/python -m training.ocr_glyphs --write
	OMP_THREAD_LIMIT=1 DOCAI_CORPUS=$(CORPUS) $(BIN)/python -m training.ocr_confusions --write
	OMP_THREAD_LIMIT=1 $(BIN)/python -m training.receipts --corpus $(CORPUS) --write total,merchant,lines
	OMP_THREAD_LIMIT=1 DOCAI_CORPUS=$(CORPUS) $(BIN)/python -m training.invoices --no-eval --write invoice_date
	OMP_THREAD_LIMIT=1 DOCAI_CORPUS=$(CORPUS) $(BIN)/python -m training.calibration --write --no-eval
	OMP_THREAD_LIMIT=1 DOCAI_CORPUS=$(CORPUS) $(BIN)/python -m training.calibration --tool receipt --write --no-eval

# RapidOCR's detector and recognizer rewritten to run faster (engines/data/rapid_*.onnx,
# derived from the wheel's models, nothing trained; deterministic). `--check` instead of
# `--write` exits 1 when a shipped file differs from its rebuild. Needs onnx (build time).
rapid-models: setup build-deps
	$(BIN)/python -m training.rapid_models --write

build-deps: venv
	$(BIN)/python -m pip install -q --disable-pip-version-check -c requirements/lock.txt -r requirements/build.txt

# Retrain the classifier and the splitter into a temporary folder and compare their sha256
# with the shipped files (about 6 minutes; exit 1 when either differs). Not part of make test.
train-check: setup
	$(BIN)/python -m training.check --corpus $(CORPUS)

# Re-pin every dependency to what is installed now (run after changing pyproject.toml).
lock: $(STAMP)
	$(BIN)/python -m pip freeze --exclude-editable --disable-pip-version-check | grep -v '^prefect-docai' > requirements/lock.txt

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .import_linter_cache site docai-output docai-samples
