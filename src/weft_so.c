/* libweft.so is the core archive linked whole; this file only gives the shared library a
 * translation unit of its own (CMake needs one). The exported surface is src/weft.map. */
int weft_shared_library_marker;
