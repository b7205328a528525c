// sc_main lives in the static library simtlm_test_main, which the linker scans
// before libsystemc.so asks for sc_main, so nothing would pull it in. Taking
// its address here makes this binary reference it (harmless once the test
// CMake forces the symbol for every area).
extern "C" int sc_main(int argc, char* argv[]);
int (*simtlm_force_link_sc_main)(int, char*[]) = &sc_main;
