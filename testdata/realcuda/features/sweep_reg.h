// The math sweep's kernel registry (this project's own code): each SWF/SWD kernel of
// mathsweep.h adds itself by name, so sweep_main.cu can launch it from math_domains.txt.
#pragma once
#include <vector>
struct SwEntry {
    const char *name;
    const void *fn;
};
std::vector<SwEntry> &sw_registry();
struct SwReg {
    SwReg(const char *n, const void *f) { sw_registry().push_back({n, f}); }
};
#define SW_REG(K, NAME) static SwReg sw_reg_##K(NAME, (const void *)K);
