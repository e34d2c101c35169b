/* tools/demo/demo.c — the demo of `make run`: real OpenCL through the ICD loader. */
#include <CL/cl.h>
#include <stdio.h>

int main(void)
{
    cl_uint n = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &n);
    printf("platforms: %u (err %d)\n", n, err);
    return err == CL_SUCCESS ? 0 : 1;
}
