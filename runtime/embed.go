// Package ksrt embeds the KernelScope CUDA runtime (src/ksrt.c), the C library a
// host program is linked against by gpu/program.
package ksrt

import _ "embed"

// Source is the text of src/ksrt.c.
//
//go:embed src/ksrt.c
var Source string
