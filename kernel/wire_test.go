package kernel

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"
)

// sample returns a signed execute_request with one identity and one buffer.
func sample(t testing.TB, s Signer) [][]byte {
	t.Helper()
	m := &Message{
		Identities: [][]byte{[]byte("client-1")},
		Header:     NewHeader("execute_request", "sess", "id-1", time.Unix(0, 0)),
		Parent:     NewHeader("kernel_info_request", "sess", "id-0", time.Unix(0, 0)),
		Metadata:   map[string]any{"k": "v"},
		Content:    json.RawMessage(`{"code":"héllo","silent":false}`),
		Buffers:    [][]byte{{0, 1, 2}},
	}
	frames, err := Encode(m, s)
	if err != nil {
		t.Fatal(err)
	}
	return frames
}

func TestRoundTrip(t *testing.T) {
	for _, key := range []string{"secret-key", ""} {
		s, err := NewSigner("hmac-sha256", key)
		if err != nil {
			t.Fatal(err)
		}
		frames := sample(t, s)
		if string(frames[1]) != Delimiter {
			t.Fatalf("frame 1 = %q", frames[1])
		}
		if key == "" && len(frames[2]) != 0 {
			t.Errorf("empty key: signature %q, want empty", frames[2])
		}
		if key != "" && len(frames[2]) != 64 {
			t.Errorf("signature %q: want 64 hex digits", frames[2])
		}
		m, err := Decode(frames, s)
		if err != nil {
			t.Fatalf("key %q: %v", key, err)
		}
		if len(m.Identities) != 1 || string(m.Identities[0]) != "client-1" {
			t.Errorf("identities %q", m.Identities)
		}
		if m.Header.MsgType != "execute_request" || m.Header.MsgID != "id-1" || m.Header.Version != "5.3" {
			t.Errorf("header %+v", m.Header)
		}
		if m.Parent.MsgID != "id-0" || m.Metadata["k"] != "v" {
			t.Errorf("parent %+v metadata %v", m.Parent, m.Metadata)
		}
		var c ExecuteRequestContent
		if err := json.Unmarshal(m.Content, &c); err != nil || c.Code != "héllo" {
			t.Errorf("content %s (%v)", m.Content, err)
		}
		if len(m.Buffers) != 1 || !bytes.Equal(m.Buffers[0], []byte{0, 1, 2}) {
			t.Errorf("buffers %v", m.Buffers)
		}
	}
}

func TestEmptyParentEncodesAsObject(t *testing.T) {
	frames, err := Encode(&Message{Header: NewHeader("status", "s", "i", time.Now())}, Signer{})
	if err != nil {
		t.Fatal(err)
	}
	if string(frames[3]) != "{}" || string(frames[4]) != "{}" || string(frames[5]) != "{}" {
		t.Errorf("parent, metadata, content = %s %s %s", frames[3], frames[4], frames[5])
	}
}

func TestWrongSignatureRejected(t *testing.T) {
	good, _ := NewSigner("hmac-sha256", "right")
	bad, _ := NewSigner("hmac-sha256", "wrong")
	frames := sample(t, good)
	if _, err := Decode(frames, bad); !errors.Is(err, ErrBadSignature) {
		t.Errorf("wrong key: err = %v, want ErrBadSignature", err)
	}
	// Tampering with any signed part breaks the signature.
	for i := 3; i <= 6; i++ {
		f := clone(frames)
		f[i] = append(bytes.Clone(f[i][:len(f[i])-1]), ' ', '}')
		if _, err := Decode(f, good); !errors.Is(err, ErrBadSignature) {
			t.Errorf("tampered frame %d: err = %v", i, err)
		}
	}
	// A missing or truncated signature is rejected.
	f := clone(frames)
	f[2] = f[2][:10]
	if _, err := Decode(f, good); !errors.Is(err, ErrBadSignature) {
		t.Errorf("short signature: err = %v", err)
	}
	f[2] = nil
	if _, err := Decode(f, good); !errors.Is(err, ErrBadSignature) {
		t.Errorf("empty signature: err = %v", err)
	}
	// Upper-case hex is the same signature.
	f = clone(frames)
	f[2] = bytes.ToUpper(f[2])
	if _, err := Decode(f, good); err != nil {
		t.Errorf("upper-case signature: %v", err)
	}
}

func TestSchemeChecked(t *testing.T) {
	if _, err := NewSigner("hmac-md5", "k"); err == nil {
		t.Error("hmac-md5 accepted")
	}
	if _, err := NewSigner("", ""); err != nil {
		t.Errorf("empty scheme with empty key: %v", err)
	}
}

func clone(f [][]byte) [][]byte {
	out := make([][]byte, len(f))
	for i := range f {
		out[i] = bytes.Clone(f[i])
	}
	return out
}

func TestTruncatedAndGarbage(t *testing.T) {
	s, _ := NewSigner("hmac-sha256", "k")
	frames := sample(t, s)
	for n := 0; n < 7; n++ {
		if _, err := Decode(frames[:n], s); err == nil {
			t.Errorf("%d of %d frames: no error", n, len(frames))
		}
	}
	if _, err := Decode(frames[:6], s); !errors.Is(err, ErrTruncated) {
		t.Errorf("6 frames: err = %v, want ErrTruncated", err)
	}
	if _, err := Decode(frames[2:], s); !errors.Is(err, ErrNoDelimiter) {
		t.Errorf("no delimiter: err = %v", err)
	}
	nokey := Signer{}
	garbage := map[string][][]byte{
		"header not json":    {[]byte(Delimiter), nil, []byte("{"), []byte("{}"), []byte("{}"), []byte("{}")},
		"header array":       {[]byte(Delimiter), nil, []byte("[]"), []byte("{}"), []byte("{}"), []byte("{}")},
		"header no type":     {[]byte(Delimiter), nil, []byte(`{"msg_id":"x"}`), []byte("{}"), []byte("{}"), []byte("{}")},
		"header bad types":   {[]byte(Delimiter), nil, []byte(`{"msg_type":7}`), []byte("{}"), []byte("{}"), []byte("{}")},
		"parent null":        {[]byte(Delimiter), nil, []byte(`{"msg_type":"a"}`), []byte("null"), []byte("{}"), []byte("{}")},
		"metadata string":    {[]byte(Delimiter), nil, []byte(`{"msg_type":"a"}`), []byte("{}"), []byte(`"x"`), []byte("{}")},
		"content number":     {[]byte(Delimiter), nil, []byte(`{"msg_type":"a"}`), []byte("{}"), []byte("{}"), []byte("42")},
		"content trailing":   {[]byte(Delimiter), nil, []byte(`{"msg_type":"a"}`), []byte("{}"), []byte("{}"), []byte("{} {}")},
		"content binary":     {[]byte(Delimiter), nil, []byte(`{"msg_type":"a"}`), []byte("{}"), []byte("{}"), {0xff, 0xfe}},
		"delimiter too late": append(make([][]byte, maxIdentities+2), []byte(Delimiter), nil, []byte(`{"msg_type":"a"}`), []byte("{}"), []byte("{}"), []byte("{}")),
	}
	for name, f := range garbage {
		if _, err := Decode(f, nokey); err == nil {
			t.Errorf("%s: no error", name)
		} else if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrNoDelimiter) {
			t.Errorf("%s: err = %v, want ErrMalformed", name, err)
		}
	}
	ok := [][]byte{[]byte(Delimiter), nil, []byte(`{"msg_type":"a"}`), []byte("{}"), []byte("{}"), []byte(" {} ")}
	if _, err := Decode(ok, nokey); err != nil {
		t.Errorf("minimal message: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	s, _ := NewSigner("hmac-sha256", "k")
	join := func(frames [][]byte) []byte {
		var b []byte
		for _, fr := range frames {
			b = append(b, byte(len(fr)))
			b = append(b, fr...)
		}
		return b
	}
	f.Add(join(sample(f, s)), true)
	f.Add(join(sample(f, Signer{})), false)
	f.Add([]byte{9, '<', 'I', 'D', 'S', '|', 'M', 'S', 'G', '>', 0, 2, '{', '}'}, false)
	f.Fuzz(func(t *testing.T, data []byte, signed bool) {
		// Split data into frames: each frame is a length byte then that many bytes (clamped).
		var frames [][]byte
		for len(data) > 0 {
			n := min(int(data[0]), len(data)-1)
			frames = append(frames, data[1:1+n])
			data = data[1+n:]
		}
		signer := Signer{}
		if signed {
			// Sign correctly so that decoding gets past the signature check.
			signer = s
			for i, fr := range frames {
				if string(fr) == Delimiter && len(frames) >= i+6 {
					frames[i+1] = s.Sign(frames[i+2], frames[i+3], frames[i+4], frames[i+5])
					break
				}
			}
		}
		m, err := Decode(frames, signer)
		if err != nil {
			return
		}
		// Whatever decodes must re-encode and decode to the same header.
		out, err := Encode(m, signer)
		if err != nil {
			t.Fatalf("decoded message does not encode: %v", err)
		}
		m2, err := Decode(out, signer)
		if err != nil {
			t.Fatalf("re-encoded message does not decode: %v", err)
		}
		if m2.Header != m.Header || m2.Parent != m.Parent || len(m2.Buffers) != len(m.Buffers) {
			t.Fatalf("round trip changed the message: %+v vs %+v", m2.Header, m.Header)
		}
	})
}
