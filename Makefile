# Thin wrapper over CMake: `make` builds into build/, `make test` runs every test.
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_FLAGS ?=
# clang: its carry builtins turn the field additions into one adc/sbb chain (field/limb.h;
# about 2.5x faster than gcc 12's code for them) and it schedules the portable Montgomery
# loops better; gcc still builds and passes the tests.
ifeq ($(origin CC),default)
  CC := $(shell command -v clang >/dev/null 2>&1 && echo clang || echo cc)
endif
export CC

PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all test demo clean sanitize install soak
all: $(BUILD)/Makefile
	@$(MAKE) -s -C $(BUILD) -j$(JOBS)

$(BUILD)/Makefile: CMakeLists.txt
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null

test: all
	@tests/oracle/ensure-deps.sh
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) -LE soak

# The long fault soak of the daemon (tests/server/soak.py, 15 minutes); make test runs its
# 2-minute version.
soak: all
	cd $(BUILD) && ctest --output-on-failure -L soak

# Binaries, example configuration, systemd unit and sysusers.d entry (dist/install.cmake)
# under $(DESTDIR)$(PREFIX); the configuration goes to /etc/cuzk/cuzk.toml for PREFIX=/usr,
# else $(PREFIX)/etc/cuzk/cuzk.toml, and an existing one is kept.
install: all
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

# The main job on small built-in examples (tools/demo.sh): the engine pipeline on the
# synthetic circuit, then setup/prove/verify of a circom circuit checked by snarkjs.
demo: all
	@tools/demo.sh $(BUILD)

# AddressSanitizer + UBSan build (build-asan/) running the readers' (vanilla proofs included) and the CLI's tests.
sanitize:
	@$(MAKE) -s BUILD=build-asan CMAKE_FLAGS=-DCUZK_SANITIZE=ON all
	@tests/oracle/ensure-deps.sh
	cd build-asan && ctest --output-on-failure -R '^(iden3|groth16|e2e|field|pairing|filecoin_(merkle_proof|post|c1|snap|blob_list)$$)'

clean:
	rm -rf $(BUILD) build-*
