# Weft — top-level entry points. `make run` and `make test` work on a fresh Debian 12 machine.
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo

.PHONY: all deps configure build run test test-verify test-sanitize install deb bench clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) $(if $(CI),-DWEFT_WERROR=ON,)

configure: $(BUILD)/CMakeCache.txt

build: deps configure
	cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/bin/weft info
	OCL_ICD_VENDORS=$(CURDIR)/$(BUILD)/weft.icd $(BUILD)/bin/weft-demo

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The suite once more under WEFT_VERIFY=1 (README): every pair of variants the runtime profiles
# is compared on a sample of groups; any mismatch lands in verify.log and fails the target.
# The forced-variant runs (e2e-v/) are left out: a forced variant is never profiled.
test-verify: build
	rm -f $(BUILD)/verify.log
	cd $(BUILD) && WEFT_VERIFY=1 WEFT_VERIFY_LOG=$(CURDIR)/$(BUILD)/verify.log ctest --output-on-failure -j $(JOBS) -E '^e2e-v/'
	@if [ -s $(BUILD)/verify.log ]; then echo "WEFT_VERIFY found mismatches:"; cat $(BUILD)/verify.log; exit 1; fi

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer (WEFT_SANITIZE, in a
# build folder of its own; CTest sets the sanitizers' options, tests/CMakeLists.txt), but the
# bench smoke runs: they run every platform's kernels in one process (pocl's too, with its own
# LLVM), each passed 15 minutes instrumented, and Weft's part of them is what e2e runs.
SANITIZE_BUILD ?= build-sanitize
test-sanitize: deps
	cmake -S . -B $(SANITIZE_BUILD) $(CMAKE_FLAGS) -DWEFT_SANITIZE=ON $(if $(CI),-DWEFT_WERROR=ON,)
	cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	cd $(SANITIZE_BUILD) && ctest --output-on-failure -j $(JOBS) -E '^bench/'

bench: build
	$(BUILD)/bin/weft bench

# PREFIX and DESTDIR as usual (make install DESTDIR=/tmp/stage stages without touching /).
# The tree is relocatable (CMakeLists.txt, install): stripped, no path of the build inside.
# PREFIX/etc/OpenCL/vendors/weft.icd names the library; /etc/OpenCL/vendors/weft.icd registers
# it with the ICD loader.
PREFIX ?= /usr/local
install: build
	DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX) --strip
	mkdir -p $(DESTDIR)/etc/OpenCL/vendors
	echo "$(PREFIX)/lib/libweft.so" > $(DESTDIR)/etc/OpenCL/vendors/weft.icd

# The Debian package weft_VERSION_ARCH.deb in $(BUILD) (scripts/make-deb.sh): /usr/bin/weft,
# /usr/bin/weft-bench-runner, /usr/lib/libweft.so, /usr/share/weft, /etc/OpenCL/vendors/weft.icd.
deb: build
	bash scripts/make-deb.sh $(BUILD)

clean:
	rm -rf $(BUILD)
