package analysis

import (
	"context"

	"github.com/kernelscope/kernelscope/gpu/toolchain"
	"github.com/kernelscope/kernelscope/internal/testcache"
)

// cachedCompile is toolchain.Compile for the golden sources, which gpu/toolchain's
// tests compile too: within one go test run each request is compiled once
// (internal/testcache). For requests whose result depends on no file beyond the request.
func cachedCompile(req toolchain.Request) (*toolchain.Result, error) {
	key := req
	key.Timeout = 0
	return testcache.Compile(key, func() (*toolchain.Result, error) { return toolchain.Compile(context.Background(), req) })
}
