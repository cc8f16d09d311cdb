# Operator commands (CONTRACT.md). Every target installs what it needs itself, so a fresh
# clone with Node 20 and the npm registry is enough.
SHELL := /bin/bash
INSTALL_STAMP := node_modules/.install-stamp
CORPUS ?= pipeline/sample-corpus
ARTIFACTS ?= artifacts
N ?= 100000
OUT ?= .tmp/synth-$(N)
## Where bench/scale.ts keeps its synthetic versions (100k and 1M), which later benchmarks reuse.
SCALE_ROOT ?= .tmp/bench-retrieval
SEED ?= 42
SOAK_MINUTES ?= 10
# The encoder the pipeline trains: ensemble (default: LSA and subword skip-gram joined), lsa or
# fasttext (subword skip-gram alone); see README.
ENCODER ?= ensemble
export ENCODER
TSX := node --import tsx

# onnxruntime-node's install script would fetch CUDA parts from outside the registry: skip it
# (npm 11 already blocks dependency install scripts through allowScripts in package.json).
export ONNXRUNTIME_NODE_INSTALL := skip
export AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE := 1

.PHONY: install artifacts serve test bench synth typecheck notebooks clean ocr-setup encoder-setup rollback build-worker

# npm ci installs exactly the lock file (it lists every platform's optional packages); without a
# lock file, npm install writes one.
$(INSTALL_STAMP): package.json $(wildcard package-lock.json)
	@if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
	@touch $(INSTALL_STAMP)

install: $(INSTALL_STAMP)

typecheck: install
	npx tsc --noEmit -p .

## Builds every pipeline stage into $(ARTIFACTS)/<version>/ and switches $(ARTIFACTS)/current.
## With PUBLISH=s3://bucket/prefix the version is then uploaded and the bucket's `current` moved.
artifacts: install encoder-setup
	$(TSX) pipeline/main.ts --corpus "$(CORPUS)" --artifacts "$(ARTIFACTS)" $(if $(PUBLISH),--publish "$(PUBLISH)")

## A build worker for distributed builds: reads corpus objects from the build queue (BUILD_QUEUE,
## BUILD_QUEUE_NAME) into partitions on S3 (BUILD_STORE side: S3_ENDPOINT, AWS_*) and encodes
## embedding batches from <BUILD_QUEUE_NAME>.embed into vectors there, until SIGTERM;
## INGEST_WORKERS objects and BUILD_EMBED_CONCURRENCY batches at once. See docs/deploy.md.
build-worker: install
	$(TSX) pipeline/distributed/worker-main.ts

## Points $(ARTIFACTS)/current back at the previous complete version; a running `make serve` follows it.
rollback: install
	$(TSX) pipeline/rollback.ts --artifacts "$(ARTIFACTS)"

## Builds artifacts when missing or stale, then runs the inference hub and the API in the foreground.
serve: install encoder-setup
	$(TSX) pipeline/main.ts --corpus "$(CORPUS)" --artifacts "$(ARTIFACTS)"
	@served="$${ARTIFACTS_DIR:-$(ARTIFACTS)/current}"; \
	  if [ "$${OCR_ENABLED:-1}" != 0 ] && [ -n "$$(ls -A "$$served/page-images" 2>/dev/null)" ]; then $(MAKE) --no-print-directory ocr-setup; fi
	ARTIFACTS_DIR="$${ARTIFACTS_DIR:-$(ARTIFACTS)/current}" exec $(TSX) api/serve.ts

test: install
	npx tsc --noEmit -p .
	@mkdir -p .tmp
	npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest-report.json
	@node -e 'const r=require("./.tmp/vitest-report.json"); console.log(`$${r.numPassedTests} passed, $${r.numFailedTests} failed, $${r.numPendingTests + r.numTodoTests} skipped`)'

bench: install encoder-setup
	$(TSX) pipeline/main.ts --corpus "$(CORPUS)" --artifacts "$(ARTIFACTS)"
	$(TSX) bench/ingest.ts --synth 20000
	$(TSX) bench/nightly.ts
	$(TSX) bench/vectors.ts --artifacts $(ARTIFACTS)/current
	$(TSX) bench/index-extension.ts --sizes 100000,1000000
	$(TSX) bench/serving-records.ts
	$(TSX) bench/antecedent-quality.ts --artifacts $(ARTIFACTS)/current
	$(TSX) bench/encoder-similarity.ts --artifacts $(ARTIFACTS)/current
	$(TSX) bench/phrase-search.ts --artifacts $(ARTIFACTS)/current
	$(TSX) bench/patent-map.ts --points 1000000
	$(TSX) bench/retrieval.ts
	$(TSX) bench/scale.ts
	$(TSX) bench/lexical.ts --artifacts $(SCALE_ROOT)/synth-1000000/artifacts/current
	$(TSX) bench/reference-routes.ts --artifacts $(ARTIFACTS)/current
	$(TSX) bench/prosecution-scale.ts
	$(TSX) bench/memory.ts --versions $(SCALE_ROOT)/synth-100000/artifacts/current,$(SCALE_ROOT)/synth-1000000/artifacts/current --labels 100k,1M
	$(TSX) bench/api-throughput.ts --artifacts $(ARTIFACTS)/current,$(SCALE_ROOT)/synth-1000000/artifacts/current
	$(TSX) bench/soak.ts --artifacts $(ARTIFACTS)/current --minutes $(SOAK_MINUTES)

## Installs Tesseract for reading image-only filings (Debian package tesseract-ocr). `make serve`
## calls it when the served version holds page images and OCR_ENABLED is not 0.
ocr-setup:
	@command -v tesseract >/dev/null && exit 0; \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing tesseract-ocr for OCR of image-only filings"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr >/dev/null) \
	      || echo "tesseract-ocr could not be installed: image-only ancestors will be reported as ocr-failed"; \
	  else echo "Tesseract is not installed (Debian: apt-get install tesseract-ocr): image-only ancestors will be reported as ocr-failed"; fi

## Installs Debian's fasttext, which trains the encoder natively (ENCODER_TRAINER=auto, README
## "Encoder"); without it the encoder stage trains in-process on one thread and less text.
encoder-setup:
	@command -v fasttext >/dev/null && exit 0; [ "$${ENCODER_TRAINER:-auto}" = wasm ] && exit 0; \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing fasttext for training the encoder"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fasttext >/dev/null) \
	      || echo "fasttext could not be installed: the encoder trains in-process (ENCODER_TRAINER=wasm)"; \
	  else echo "fasttext is not installed (Debian: apt-get install fasttext): the encoder trains in-process (ENCODER_TRAINER=wasm)"; fi

## Runs the analyst notebooks against the current artifacts (tables and SVG charts in notebooks/out/).
notebooks: install
	$(TSX) notebooks/run-all.ts --catalog $(ARTIFACTS)/current/catalog.duckdb

synth: install
	$(TSX) pipeline/synth/main.ts --n $(N) --out "$(OUT)" --seed $(SEED)

clean:
	rm -rf .tmp var
