# Sluice build. `make test` and `make demo` work from a fresh clone on a machine with Go,
# a JDK 17 and Maven; Go modules and Maven artifacts are downloaded on first use.

GO        ?= go
JAVA_HOME ?= $(shell dirname $$(dirname $$(readlink -f $$(which javac))))
NATIVE    := build/native/linux-x86_64/libsluice.so
POM       := planner-hook/pom.xml
MVN       := mvn -B -f $(POM) -Dorg.slf4j.simpleLogger.log.org.apache.maven.cli.transfer.Slf4jMavenTransferListener=warn
GO_SRC    := $(shell find . -name '*.go' -not -path './build/*' -not -path '*/target/*') go.mod go.sum
JAR       := planner-hook/flink/target/sluice-flink-0.1.0-SNAPSHOT.jar

export CGO_CFLAGS := -I$(JAVA_HOME)/include -I$(JAVA_HOME)/include/linux

.PHONY: all native build test test-go test-java test-long demo demo-calc bench bench-nexmark fuzz docs docs-check clean adbc-drivers postgres kafka fluss env flightsql-server

# ADBC's C drivers for PostgreSQL and SQLite, taken from the Python wheels that ship them
# (libpq and SQLite linked in); nothing of them is committed.
ADBC_VERSION := 1.13.0
ADBC_DIR     := build/adbc
ADBC_DRIVERS := $(ADBC_DIR)/libadbc_driver_postgresql.so $(ADBC_DIR)/libadbc_driver_sqlite.so
export SLUICE_ADBC_DRIVER_DIR := $(CURDIR)/$(ADBC_DIR)

all: build

## native: the Go shared library that the plugin jar carries.
native: $(NATIVE)

$(NATIVE): $(GO_SRC)
	@mkdir -p $(dir $@)
	$(GO) build -buildmode=c-shared -o $@ ./planner-hook/jni
	@rm -f $(basename $@).h

## adbc-drivers: the ADBC drivers the tests load (the wheels from PyPI, unpacked).
adbc-drivers: $(ADBC_DRIVERS)

$(ADBC_DIR)/libadbc_driver_%.so:
	@mkdir -p $(ADBC_DIR)/wheels
	python3 -m pip download -q --no-deps --only-binary=:all: -d $(ADBC_DIR)/wheels adbc-driver-$*==$(ADBC_VERSION)
	python3 -c 'import sys, zipfile, glob; w = glob.glob("$(ADBC_DIR)/wheels/adbc_driver_$*-$(ADBC_VERSION)-*.whl")[0]; z = zipfile.ZipFile(w); open("$@", "wb").write(z.read("adbc_driver_$*/libadbc_driver_$*.so"))'

## flightsql-server: a Flight SQL server for the tests of the ADBC connector's Flight SQL driver
## (arrow-go's example server over SQLite, testkit/cmd/flightsqlserver).
FLIGHTSQL_SERVER := build/flightsqlserver
export SLUICE_FLIGHTSQL_SERVER := $(CURDIR)/$(FLIGHTSQL_SERVER)
flightsql-server: $(FLIGHTSQL_SERVER)

$(FLIGHTSQL_SERVER): $(GO_SRC)
	@mkdir -p $(dir $@)
	$(GO) build -o $@ ./testkit/cmd/flightsqlserver

## postgres: starts the tests' PostgreSQL server (build/postgres, 127.0.0.1:54329); the tests read
## its URI from SLUICE_PG_URI.
postgres:
	bin/sluice-postgres start
export SLUICE_PG_URI := $(shell SLUICE_PG_PORT=$${SLUICE_PG_PORT:-54329} bin/sluice-postgres uri 2>/dev/null)

## kafka: starts the tests' Kafka broker (one KRaft node, build/kafka, 127.0.0.1:59092); the tests
## read its bootstrap servers from SLUICE_KAFKA_BOOTSTRAP.
kafka:
	bin/sluice-kafka start
export SLUICE_KAFKA_BOOTSTRAP := $(shell SLUICE_KAFKA_PORT=$${SLUICE_KAFKA_PORT:-59092} bin/sluice-kafka bootstrap 2>/dev/null)

## fluss: starts the tests' Fluss cluster (ZooKeeper, a coordinator and a tablet server under
## build/fluss, 127.0.0.1:59123); the tests read its bootstrap servers from SLUICE_FLUSS_BOOTSTRAP.
fluss:
	bin/sluice-fluss start
export SLUICE_FLUSS_BOOTSTRAP := $(shell SLUICE_FLUSS_PORT=$${SLUICE_FLUSS_PORT:-59123} bin/sluice-fluss bootstrap 2>/dev/null)

## env: the environment `go vet` and `go test` need outside make (the JNI headers, the ADBC
## drivers, the tests' PostgreSQL): `eval $$(make -s env)`.
env:
	@echo export CGO_CFLAGS=\"$(CGO_CFLAGS)\" SLUICE_ADBC_DRIVER_DIR=$(SLUICE_ADBC_DRIVER_DIR) SLUICE_PG_URI=$(SLUICE_PG_URI) SLUICE_FLIGHTSQL_SERVER=$(SLUICE_FLIGHTSQL_SERVER) SLUICE_KAFKA_BOOTSTRAP=$(SLUICE_KAFKA_BOOTSTRAP) SLUICE_FLUSS_BOOTSTRAP=$(SLUICE_FLUSS_BOOTSTRAP)

## build: the plugin jar with the native library inside.
build: $(NATIVE)
	$(MVN) -q package -DskipTests

## test: Go unit tests, the generated-docs check, and the JUnit suite on a Flink MiniCluster.
test: adbc-drivers postgres test-go docs-check test-java

test-go: adbc-drivers postgres
	$(GO) vet ./...
	$(GO) test -race ./...
	# arrow-go's reference-count assertions ("too many releases") over the packages that build
	# Arrow buffers by hand (arrow-go's own zstd assertions trip elsewhere).
	$(GO) test -tags assert ./binaryrow/... ./exec/... ./sources/... ./sinks/parquet/...

test-java: $(NATIVE) adbc-drivers postgres kafka fluss $(FLIGHTSQL_SERVER)
	$(MVN) test

## test-long: the slow checks kept out of `make test`: this JVM's Double.toString/Float.toString
## on 3 million random values of each against javacompat/javatext, then a 30-minute run of the
## expression fuzzer, one of the json decoder's fuzz target (DECODER_FUZZTIME), one of the raw
## decoder's (RAW_FUZZTIME; its values are checked against the raw encoder) and one of the csv
## decoder's (CSV_FUZZTIME; a record taken reads back the same re-quoted), one of the avro
## decoder's (AVRO_FUZZTIME) and one of the debezium-json decoder's (DEBEZIUM_FUZZTIME).
DECODER_FUZZTIME ?= 30m
RAW_FUZZTIME ?= 30m
CSV_FUZZTIME ?= 30m
AVRO_FUZZTIME ?= 30m
DEBEZIUM_FUZZTIME ?= 30m
test-long: $(NATIVE)
	$(MVN) -q test-compile
	bin/sluice-java io.sluice.tools.FloatTextGolden random 3000000 $$(date +%s) > build/float_text_random.txt
	SLUICE_FLOAT_TEXT=$(CURDIR)/build/float_text_random.txt $(GO) test -count=1 -run TestAppendDoubleGolden ./javacompat/javatext/
	rm -f build/float_text_random.txt
	$(MAKE) fuzz DURATION=30m
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime $(DECODER_FUZZTIME) ./sources/jsonformat/
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime $(RAW_FUZZTIME) ./sources/rawformat/
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime $(CSV_FUZZTIME) ./sources/csvformat/
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime $(AVRO_FUZZTIME) ./sources/avroformat/
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime $(DEBEZIUM_FUZZTIME) ./sources/debeziumformat/

## docs: regenerate docs/support-matrix.md from the Go registry.
docs:
	$(GO) run ./testkit/cmd/supportmatrix > docs/support-matrix.md

docs-check:
	$(GO) run ./testkit/cmd/supportmatrix | diff -u docs/support-matrix.md - \
		|| (echo "docs/support-matrix.md is stale: run 'make docs'" && exit 1)
	@missing=$$($(GO) list ./... | sed 's|^github.com/sluice-project/sluice/*||' | while read p; do \
		grep -qF "| \`$$p\` |" docs/architecture.md || echo "$$p"; done); \
	if [ -n "$$missing" ]; then echo "docs/architecture.md's package table lacks:" $$missing; exit 1; fi

## demo: the lakehouse job (generated bids in a local Iceberg table -> 10 s TUMBLE -> Iceberg),
## on stock Flink and on Sluice, then the same windows into PostgreSQL through the ADBC catalog
## (stock: Flink's JDBC sink); `make demo-calc` runs the earlier Calc-only demo.
demo: $(NATIVE) adbc-drivers postgres
	$(MVN) -q test-compile
	bin/sluice-java io.sluice.cli.LakehouseDemo

demo-calc: $(NATIVE)
	$(MVN) -q test-compile
	bin/sluice-java io.sluice.cli.Demo

## bench: the window, Parquet, Iceberg, ADBC, join, changelog and Calc benchmarks, stock Flink vs Sluice (each engine's runs in a JVM of their own); writes docs/benchmarks.md.
## ONLY=join,group-agg,... measures just those sections in one run and merges them into the page.
ONLY ?=
bench: $(NATIVE) adbc-drivers postgres
	$(MVN) -q test-compile
	bin/sluice-java $(if $(ONLY),-Dsluice.bench.only=$(ONLY)) io.sluice.bench.Benchmarks docs/benchmarks.md

## bench-nexmark: the Nexmark queries from Kafka to Kafka (exactly once), stock Flink with heap and
## RocksDB state vs Sluice, outputs compared; merges its section into docs/benchmarks.md.
## NEXMARK_EVENTS sets the input's size (default 1,000,000 events).
## NEXMARK_QUERIES=q0,q1,... measures just those queries.
NEXMARK_EVENTS ?= 1000000
NEXMARK_QUERIES ?=
bench-nexmark: $(NATIVE) kafka
	$(MVN) -q test-compile
	bin/sluice-java -Dsluice.bench.only=nexmark -Dsluice.bench.nexmark.events=$(NEXMARK_EVENTS) $(if $(NEXMARK_QUERIES),-Dsluice.bench.nexmark.queries=$(NEXMARK_QUERIES)) io.sluice.bench.Benchmarks docs/benchmarks.md

## fuzz: the differential expression fuzzer for DURATION (e.g. 10m, 2h) from SEED (default: the
## clock); shrunk mismatches are saved under testkit/fuzz/testdata/regressions.
DURATION ?= 5m
SEED     ?=
fuzz: $(NATIVE)
	$(MVN) -q test-compile
	bin/sluice-java io.sluice.fuzz.Fuzz $(DURATION) $(SEED)

clean:
	rm -rf build planner-hook/flink/target
