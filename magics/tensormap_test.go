package magics

import (
	"strings"
	"testing"
)

func TestParseTensorMap(t *testing.T) {
	m, err := ParseTensorMap("tmA = tiled(A, dtype=f16, dims=[200, 130], strides=[400], box=[64,16], element_strides=[1, 2], swizzle=128B, oob=nan, interleave=none)")
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "tmA" || m.Buffer != "A" || m.DType != "f16" || len(m.Dims) != 2 || m.Dims[1] != 130 || m.Strides[0] != 400 ||
		m.Box[0] != 64 || m.ElemStrides[1] != 2 || m.Swizzle != 128 || !m.OOBNaN {
		t.Errorf("parsed %+v", m)
	}
	for _, c := range []struct{ in, want string }{
		{"tmA = tiled(A, box=[64])", "dims=[...] and box=[...] are required"},
		{"tmA = im2col(A, dims=[4], box=[4])", "im2col tensor maps are not modelled"},
		{"tmA = tiled(A, dims=[4], box=[4], swizzle=16B)", "swizzle must be none, 32B, 64B or 128B"},
		{"tmA = tiled(A, dims=[4], box=[4], oob=one)", "oob must be zero or nan"},
		{"tmA = tiled(A, dims=[4], box=[4], colour=red)", "unknown key \"colour\""},
		{"tmA = tiled(A, dims=[4, x], box=[4])", "expected a non-negative integer"},
		{"tmA = tiled(A, dims=[4], box=[4], dtype=q8)", "unknown dtype"},
	} {
		_, err := ParseTensorMap(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.in, err, c.want)
		}
	}
}

func TestTensorMapMagic(t *testing.T) {
	st := NewState()
	spec, err := st.Parse("%tensormap tmA = tiled(A, dims=[64, 64], box=[32, 32], swizzle=128B)\n%tensormap tmB = tiled(B, dims=[8], box=[8])\n__global__ void k() {}\n")
	if err != nil {
		t.Fatal(err)
	}
	if spec.Launch == nil || len(spec.Launch.TensorMaps) != 2 || spec.Launch.TensorMaps[0].Swizzle != 128 {
		t.Fatalf("launch %+v", spec.Launch)
	}
	_, err = st.Parse("%tensormap tmA = tiled(A, dims=[64, 64])\n")
	if err == nil || !strings.Contains(err.Error(), "cell line 1") || !strings.Contains(err.Error(), "%tensormap") {
		t.Errorf("error %v", err)
	}
}
