package toolchain

import (
	"context"

	"github.com/kernelscope/kernelscope/internal/testcache"
)

// cachedCompile is Compile for the golden sources, which gpu/analysis's tests compile
// too: within one go test run each request is compiled once (internal/testcache). For
// requests whose result depends on no file beyond the request (no include directory).
func cachedCompile(req Request) (*Result, error) {
	key := req
	key.Timeout = 0
	return testcache.Compile(key, func() (*Result, error) { return Compile(context.Background(), req) })
}
