/* tests/unit/analysis_test_ir.h — shared by the analysis unit tests (test_cfg, test_dominators,
 * test_loops, test_liveness, test_shape): parse hand-written IR from a string, find functions,
 * blocks and named values. Each test owns one LLVM context, created and destroyed per test. */
#ifndef WEFT_TEST_ANALYSIS_IR_H
#define WEFT_TEST_ANALYSIS_IR_H

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct test_ir {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
};

/* Parses `text`; fails the test with LLVM's message when it does not parse. */
static inline struct test_ir test_ir_parse(const char *text)
{
    struct test_ir ir = {.ctx = LLVMContextCreate()};
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "test.ll");
    char *msg = NULL;
    if (LLVMParseIRInContext(ir.ctx, buf, &ir.mod, &msg)) {   /* takes the buffer */
        print_error("IR does not parse: %s\n", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        fail();
    }
    /* the analyses assume valid IR: check the test's IR first */
    if (LLVMVerifyModule(ir.mod, LLVMReturnStatusAction, &msg)) {
        print_error("IR does not verify: %s\n", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        fail();
    }
    LLVMDisposeMessage(msg);
    return ir;
}

static inline void test_ir_dispose(struct test_ir *ir)
{
    LLVMDisposeModule(ir->mod);
    LLVMContextDispose(ir->ctx);
}

static inline LLVMValueRef test_ir_fn(const struct test_ir *ir, const char *name)
{
    LLVMValueRef f = LLVMGetNamedFunction(ir->mod, name);
    if (!f) {
        print_error("no function @%s\n", name);
        fail();
    }
    return f;
}

static inline LLVMBasicBlockRef test_ir_block(LLVMValueRef fn, const char *name)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        if (strcmp(LLVMGetBasicBlockName(bb), name) == 0)
            return bb;
    print_error("no block %%%s\n", name);
    fail();
    return NULL;
}

/* An instruction or argument by its IR name. */
static inline LLVMValueRef test_ir_value(LLVMValueRef fn, const char *name)
{
    size_t len;
    for (LLVMValueRef a = LLVMGetFirstParam(fn); a; a = LLVMGetNextParam(a))
        if (strcmp(LLVMGetValueName2(a, &len), name) == 0)
            return a;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            if (strcmp(LLVMGetValueName2(in, &len), name) == 0)
                return in;
    print_error("no value %%%s\n", name);
    fail();
    return NULL;
}

#endif
