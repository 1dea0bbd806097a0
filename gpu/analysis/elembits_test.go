package analysis

import "testing"

func TestElemBits(t *testing.T) {
	for _, c := range []struct {
		b    []byte
		want string
	}{
		{[]byte{0x01, 0x00, 0x80, 0x3f}, "0x3f800001"},
		{[]byte{0xff}, "0xff"},
		{[]byte{0x00, 0x3c}, "0x3c00"},
		{[]byte{1, 0, 0, 0, 0, 0, 0xf0, 0x3f}, "0x3ff0000000000001"},
	} {
		if got := elemBits(c.b); got != c.want {
			t.Errorf("elemBits(%x) = %s, want %s", c.b, got, c.want)
		}
	}
}
