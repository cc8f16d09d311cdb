# Operator commands (see README.md). Every target installs dependencies itself.
SHELL := /bin/bash
NODE_MODULES_STAMP := node_modules/.install-stamp
CORPUS ?= pipeline/sample-corpus
ARTIFACTS ?= artifacts
N ?= 100000
OUT ?= .tmp/synth
SEED ?= 42

.PHONY: install artifacts serve test bench synth typecheck notebooks

$(NODE_MODULES_STAMP): package.json
	npm install --no-audit --no-fund
	@touch $(NODE_MODULES_STAMP)

install: $(NODE_MODULES_STAMP)

typecheck: install
	npx tsc --noEmit -p .

artifacts: install
	npx tsx pipeline/main.ts --corpus "$(CORPUS)" --artifacts "$(ARTIFACTS)"

test: install
	npx tsc --noEmit -p .
	npx vitest run

synth: install
	npx tsx pipeline/synth/main.ts --n $(N) --out "$(OUT)" --seed $(SEED)
