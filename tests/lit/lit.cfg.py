# lit configuration for Weft's compiler-stage tests: each .ll/.cl file runs its RUN lines
# with weft-opt and FileCheck substituted from the build.
import os
import lit.formats

config.name = "weft"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".cl"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.weft_build_dir, "tests", "lit-out")
config.substitutions.append(("weft-opt", config.weft_opt))
config.substitutions.append(("FileCheck", config.filecheck))
config.substitutions.append(("%clang", config.clang))
# the `weft` command (tests/lit/cli): after "weft-opt", whose text it does not contain
config.substitutions.append(("%weft", getattr(config, "weft", os.path.join(config.weft_build_dir, "bin", "weft"))))
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

# Exec tests (exec/): OpenCL C -> IR as the frontend emits it, then run.sh transforms one kernel,
# compiles it with clang and runs exec/Inputs/harness.c against host references. (Names must
# not start with "%clang" or contain "weft-opt": those substitutions are applied first.)
_weft_src = os.path.dirname(os.path.dirname(config.test_source_root))
config.substitutions.append(("%ocl_ir", config.clang + " -x cl -cl-std=CL2.0 -Xclang -finclude-default-header"
                             " -Xclang -ffake-address-space-map -target x86_64-unknown-linux-gnu -emit-llvm -S"))
# Weft's builtin library, for tests that must see builtins inlined as the runtime does
# (clang -Xclang -mlink-builtin-bitcode -Xclang %builtins_bc, then llvm:cgscc(inline)).
config.substitutions.append(("%builtins_bc", os.path.join(config.weft_build_dir, "lib", "weft-builtins.bc")))
config.substitutions.append(("%run_kernel", "sh " + os.path.join(config.test_source_root, "exec", "Inputs", "run.sh")
                             + " " + config.weft_opt + " " + config.clang + " " + os.path.join(_weft_src, "include")))
