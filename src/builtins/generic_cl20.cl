/* builtins/generic_cl20.cl — overloads that clang's built-in declarations give a __generic
 * pointer parameter even in OpenCL C 3.0 without the generic address space feature:
 * wait_group_events(int, event_t *) is declared that way, so a 3.0 kernel calls
 * _Z17wait_group_eventsiPU9CLgeneric9ocl_event. This file is compiled as OpenCL C 2.0
 * (see CMakeLists.txt) to be able to spell that parameter.
 *
 * Guarantees: same behaviour as the private overload in async.cl (a work-group barrier with
 * local and global fences).
 */
__attribute__((overloadable)) void wait_group_events(int n, __generic event_t *events)
{
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
