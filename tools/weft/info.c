/* tools/weft/info.c — `weft info`: the platform and device as Weft reports them. */
#include <CL/cl.h>
#include <stdio.h>

#include "cli.h"

int weft_cli_info(int argc, char **argv)
{
    cl_platform_id p;
    if (clGetPlatformIDs(1, &p, NULL) != CL_SUCCESS) {
        fprintf(stderr, "weft info: no platform\n");
        return 1;
    }
    char s[256];
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof s, s, NULL);
    printf("Platform: %s\n", s);
    clGetPlatformInfo(p, CL_PLATFORM_VERSION, sizeof s, s, NULL);
    printf("Version:  %s\n", s);
    return 0;
}
