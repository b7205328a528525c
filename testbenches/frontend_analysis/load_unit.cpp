// frontend/CMakeLists.txt compiles ptx/, ir/, analysis/ and passes/ but not
// frontend/load.cpp, so this test binary compiles it itself. Harmless once the
// library also builds load.cpp: the archive member is then simply not pulled
// in, because these definitions already satisfy every reference.
#include "frontend/load.cpp"
