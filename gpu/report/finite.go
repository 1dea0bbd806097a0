package report

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// Non-finite floats are not JSON numbers, so encoding/json refuses them ("json:
// unsupported value: NaN") and a single NaN in a buffer's sum or a hit rate of 0/0
// would lose the whole report. DESIGN.md fixes their encoding: the strings "NaN",
// "Infinity" and "-Infinity". One mechanism does it for every float field: each report
// type that holds floats marshals through marshalFinite, which encodes a copy of the
// struct whose float fields (and float map values, slice and array elements, pointers)
// have the types finite64/finite32 below; every other field is encoded unchanged.
// TestNonFiniteEveryFloatField walks every float reachable from Report by reflection,
// so a new float field that misses this path fails the test.

// The strings DESIGN.md gives non-finite floats.
const (
	jsonNaN    = "NaN"
	jsonPosInf = "Infinity"
	jsonNegInf = "-Infinity"
)

// finite64 is a float64 that encodes NaN and ±Inf as the DESIGN.md strings.
type finite64 float64

// MarshalJSON writes a JSON number, or "NaN", "Infinity", "-Infinity".
func (f finite64) MarshalJSON() ([]byte, error) { return marshalFloat(float64(f), 64) }

// UnmarshalJSON reads a JSON number or one of the three strings.
func (f *finite64) UnmarshalJSON(b []byte) error {
	v, err := unmarshalFloat(b, 64)
	*f = finite64(v)
	return err
}

// finite32 is a float32 that encodes NaN and ±Inf as the DESIGN.md strings.
type finite32 float32

// MarshalJSON writes a JSON number, or "NaN", "Infinity", "-Infinity".
func (f finite32) MarshalJSON() ([]byte, error) { return marshalFloat(float64(f), 32) }

// UnmarshalJSON reads a JSON number or one of the three strings.
func (f *finite32) UnmarshalJSON(b []byte) error {
	v, err := unmarshalFloat(b, 32)
	*f = finite32(v)
	return err
}

// marshalFloat encodes v as encoding/json encodes a float of bits bits, except the non-finite values.
func marshalFloat(v float64, bits int) ([]byte, error) {
	switch {
	case math.IsNaN(v):
		return []byte(`"` + jsonNaN + `"`), nil
	case math.IsInf(v, 1):
		return []byte(`"` + jsonPosInf + `"`), nil
	case math.IsInf(v, -1):
		return []byte(`"` + jsonNegInf + `"`), nil
	}
	if bits == 32 {
		return json.Marshal(float32(v))
	}
	return json.Marshal(v)
}

// unmarshalFloat decodes a JSON number or one of the three strings.
func unmarshalFloat(b []byte, bits int) (float64, error) {
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return 0, fmt.Errorf("float: %w", err)
		}
		switch s {
		case jsonNaN:
			return math.NaN(), nil
		case jsonPosInf:
			return math.Inf(1), nil
		case jsonNegInf:
			return math.Inf(-1), nil
		}
		return 0, fmt.Errorf("float: string %q is not %q, %q or %q", s, jsonNaN, jsonPosInf, jsonNegInf)
	}
	if string(b) == "null" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(string(b), bits)
	if err != nil {
		return 0, fmt.Errorf("float: %w", err)
	}
	return v, nil
}

var (
	float64Type  = reflect.TypeFor[float64]()
	float32Type  = reflect.TypeFor[float32]()
	finite64Type = reflect.TypeFor[finite64]()
	finite32Type = reflect.TypeFor[finite32]()
)

// finiteType returns t with its floats replaced by finite64/finite32, and whether it
// changed. It looks through pointers, slices, arrays and map values, not into
// structs: a struct type that holds floats has its own MarshalJSON.
func finiteType(t reflect.Type) (reflect.Type, bool) {
	switch t.Kind() {
	case reflect.Float64:
		return finite64Type, true
	case reflect.Float32:
		return finite32Type, true
	case reflect.Pointer:
		if e, ok := finiteType(t.Elem()); ok {
			return reflect.PointerTo(e), true
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return t, false // []byte is base64, keep it
		}
		if e, ok := finiteType(t.Elem()); ok {
			return reflect.SliceOf(e), true
		}
	case reflect.Array:
		if e, ok := finiteType(t.Elem()); ok {
			return reflect.ArrayOf(t.Len(), e), true
		}
	case reflect.Map:
		if e, ok := finiteType(t.Elem()); ok {
			return reflect.MapOf(t.Key(), e), true
		}
	}
	return t, false
}

// convertFinite copies src into a new value of type to, where one of the two types is
// the other with its floats replaced (finiteType): it converts both ways.
func convertFinite(src reflect.Value, to reflect.Type) reflect.Value {
	if src.Type() == to {
		return src
	}
	switch to.Kind() {
	case reflect.Float64, reflect.Float32:
		return src.Convert(to)
	case reflect.Pointer:
		if src.IsNil() {
			return reflect.Zero(to)
		}
		p := reflect.New(to.Elem())
		p.Elem().Set(convertFinite(src.Elem(), to.Elem()))
		return p
	case reflect.Slice:
		if src.IsNil() {
			return reflect.Zero(to)
		}
		s := reflect.MakeSlice(to, src.Len(), src.Len())
		for i := range src.Len() {
			s.Index(i).Set(convertFinite(src.Index(i), to.Elem()))
		}
		return s
	case reflect.Array:
		a := reflect.New(to).Elem()
		for i := range src.Len() {
			a.Index(i).Set(convertFinite(src.Index(i), to.Elem()))
		}
		return a
	case reflect.Map:
		if src.IsNil() {
			return reflect.Zero(to)
		}
		m := reflect.MakeMapWithSize(to, src.Len())
		for it := src.MapRange(); it.Next(); {
			m.SetMapIndex(it.Key(), convertFinite(it.Value(), to.Elem()))
		}
		return m
	}
	panic(fmt.Sprintf("report: no conversion from %s to %s", src.Type(), to))
}

// finiteShadow returns the struct type of v with floats replaced, and the indices of
// v's fields it keeps (unexported ones are left out, as encoding/json leaves them out).
func finiteShadow(t reflect.Type) (reflect.Type, []int) {
	fields := make([]reflect.StructField, 0, t.NumField())
	keep := make([]int, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		nt, _ := finiteType(f.Type)
		fields = append(fields, reflect.StructField{Name: f.Name, Type: nt, Tag: f.Tag, Anonymous: f.Anonymous})
		keep = append(keep, i)
	}
	return reflect.StructOf(fields), keep
}

// marshalFinite encodes the struct v as encoding/json does, with non-finite floats as
// the DESIGN.md strings. v's type must not hand its MarshalJSON to marshalFinite for
// fields it holds by value and that also do so; the shadow struct has no methods, so
// there is no recursion on v itself.
func marshalFinite(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	st, keep := finiteShadow(rv.Type())
	sv := reflect.New(st).Elem()
	for j, i := range keep {
		sv.Field(j).Set(convertFinite(rv.Field(i), st.Field(j).Type))
	}
	return json.Marshal(sv.Interface())
}

// unmarshalFinite decodes data into the struct *ptr, accepting the DESIGN.md strings for floats.
func unmarshalFinite(data []byte, ptr any) error {
	rv := reflect.ValueOf(ptr).Elem()
	st, keep := finiteShadow(rv.Type())
	sp := reflect.New(st)
	// Start from the current value, as encoding/json does.
	for j, i := range keep {
		sp.Elem().Field(j).Set(convertFinite(rv.Field(i), st.Field(j).Type))
	}
	if err := json.Unmarshal(data, sp.Interface()); err != nil {
		return err
	}
	for j, i := range keep {
		rv.Field(i).Set(convertFinite(sp.Elem().Field(j), rv.Field(i).Type()))
	}
	return nil
}

// MarshalJSON encodes the counters; non-finite hit rates become "NaN", "Infinity", "-Infinity".
func (m Memory) MarshalJSON() ([]byte, error) { return marshalFinite(m) }

// UnmarshalJSON decodes what MarshalJSON wrote.
func (m *Memory) UnmarshalJSON(b []byte) error { return unmarshalFinite(b, m) }

// MarshalJSON encodes the occupancy; a non-finite percentage becomes a string.
func (o Occupancy) MarshalJSON() ([]byte, error) { return marshalFinite(o) }

// UnmarshalJSON decodes what MarshalJSON wrote.
func (o *Occupancy) UnmarshalJSON(b []byte) error { return unmarshalFinite(b, o) }

// MarshalJSON encodes the timing; non-finite per-issue ratios become strings.
func (t Timing) MarshalJSON() ([]byte, error) { return marshalFinite(t) }

// UnmarshalJSON decodes what MarshalJSON wrote.
func (t *Timing) UnmarshalJSON(b []byte) error { return unmarshalFinite(b, t) }

// MarshalJSON encodes the buffer; a non-finite sum becomes a string, and the first
// elements spell non-finite values as the JSON report does ("Infinity", not "+Inf").
func (o Output) MarshalJSON() ([]byte, error) {
	if len(o.First) > 0 {
		first := make([]string, len(o.First))
		for i, s := range o.First {
			first[i] = finiteText(s)
		}
		o.First = first
	}
	return marshalFinite(o)
}

// UnmarshalJSON decodes what MarshalJSON wrote.
func (o *Output) UnmarshalJSON(b []byte) error { return unmarshalFinite(b, o) }

// finiteText respells strconv's "+Inf", "-Inf" and "Inf" as the report's strings.
func finiteText(s string) string {
	switch s {
	case "+Inf", "Inf":
		return jsonPosInf
	case "-Inf":
		return jsonNegInf
	}
	return s
}

// MarshalJSON encodes the hint, its estimated gain's share as the DESIGN.md strings when not finite.
func (h Hint) MarshalJSON() ([]byte, error) { return marshalFinite(h) }

// UnmarshalJSON decodes a hint, accepting the DESIGN.md strings for its gain's share.
func (h *Hint) UnmarshalJSON(b []byte) error { return unmarshalFinite(b, h) }

// MarshalJSON encodes the time-aware caches' hit rates; a non-finite rate becomes a string.
func (h HitRates) MarshalJSON() ([]byte, error) { return marshalFinite(h) }

// UnmarshalJSON decodes what MarshalJSON wrote.
func (h *HitRates) UnmarshalJSON(b []byte) error { return unmarshalFinite(b, h) }
