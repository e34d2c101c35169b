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
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]
