/* Placeholder so the builtin library is never empty; replaced as the library grows. */
int __weft_builtins_version(void) { return 1; }
