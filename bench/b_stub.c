#include "runner.h"
const struct bench_desc bench_sparse[] = {{0}};
const struct bench_desc bench_patterns[] = {{0}};
const struct bench_desc bench_apps[] = {{0}};
