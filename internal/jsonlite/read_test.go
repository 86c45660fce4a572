package jsonlite

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	gojson "github.com/goccy/go-json"

	"github.com/parleyhq/parley/internal/jsonscan"
)

// skipAll reads data as one JSON text with Skip.
func skipAll(data []byte) error {
	r := NewReader(data)
	r.Skip()
	return r.End()
}

func TestReaderAccepts(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{
		`{}`, `[]`, `""`, `0`, `-0`, `null`, `true`, `false`,
		" \t\r\n{ \"a\" : [ 1 , 2 ] , \"b\" : { } } \n",
		`{"a":{"b":{"c":[[],[{}]]}}}`,
		`[-1.5e+10, 0.0, 1E-2, 123456789012345678901234567890, 1e999, -0.0e-0]`,
		`["\"\\\/\b\f\n\r\t\u0000\u001F\uABCD\uabcd"]`,
		`["\ud800", "\udc00\ud800", "\ud83d\ude00"]`, // lone surrogates are valid syntax
		"[\"\x7f é 世 🦅 \ufffd\"]",
		`{"a":1,"a":2}`, // duplicates are the caller's to notice
		strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
	} {
		if err := skipAll([]byte(doc)); err != nil {
			t.Errorf("%q: %v", doc, err)
		}
		if !json.Valid([]byte(doc)) {
			t.Errorf("%q is not JSON to encoding/json: a bad case", doc)
		}
	}
}

func TestReaderRejects(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, doc string }{
		{"empty", ""},
		{"only space", " \n"},
		{"byte-order mark", "\ufeff{}"},
		{"two values", `{} {}`},
		{"trailing garbage", `{}x`},
		{"trailing NUL", "{}\x00"},
		{"other whitespace", "{\f}"},
		{"vertical tab", "[\v1]"},
		{"non-breaking space", "[\u00a01]"},
		{"trailing comma in object", `{"a":1,}`},
		{"trailing comma in array", `[1,]`},
		{"leading comma", `[,1]`},
		{"missing comma", `[1 2]`},
		{"missing colon", `{"a" 1}`},
		{"missing value", `{"a":}`},
		{"unquoted key", `{a:1}`},
		{"single quotes", `{'a':1}`},
		{"non-string key", `{1:1}`},
		{"mismatched brackets", `[}`},
		{"unclosed object", `{"a":1`},
		{"unclosed array", `[1`},
		{"unclosed string", `"abc`},
		{"extra close", `[]]`},
		{"leading zero", `01`},
		{"leading zero in array", `[01]`},
		{"negative leading zero", `-01`},
		{"plus sign", `+1`},
		{"bare minus", `-`},
		{"bare point", `.5`},
		{"point without digits", `1.`},
		{"exponent without digits", `1e`},
		{"exponent sign only", `1e+`},
		{"hex number", `0x10`},
		{"NaN", `NaN`},
		{"Infinity", `-Infinity`},
		{"short true", `tru`},
		{"capital True", `True`},
		{"true with tail", `truex`},
		{"null with tail", `[nulll]`},
		{"raw tab in string", "\"a\tb\""},
		{"raw newline in string", "\"a\nb\""},
		{"raw NUL in string", "\"a\x00b\""},
		{"bad escape", `"\a"`},
		{"escaped single quote", `"\'"`},
		{"short unicode escape", `"\u00"`},
		{"non-hex unicode escape", `"\u00zz"`},
		{"escape at end", `"\`},
		{"invalid UTF-8 in string", "\"\xff\""},
		{"truncated UTF-8 in string", "\"\xe2\x80\""},
		{"encoded surrogate in string", "\"\xed\xa0\x80\""},
		{"overlong UTF-8 in string", "\"\xc0\xaf\""},
		{"UTF-8 outside strings", "[1,\u00e9]"},
		{"comment", "[1 /* x */]"},
		{"line comment", "[1] // x"},
		{"too deep", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)},
		{"too deep objects", strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if err := skipAll([]byte(tc.doc)); !errors.Is(err, ErrSyntax) {
				t.Errorf("%q: %v, want ErrSyntax", tc.doc, err)
			}
		})
	}
}

func TestReaderInt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		doc  string
		want int64
		err  error
	}{
		{`0`, 0, nil},
		{`-0`, 0, nil},
		{`42`, 42, nil},
		{`-42`, -42, nil},
		{`9223372036854775807`, math.MaxInt64, nil},
		{`-9223372036854775808`, math.MinInt64, nil},
		{`9223372036854775808`, 0, ErrUnexpected},
		{`-9223372036854775809`, 0, ErrUnexpected},
		{`18446744073709551616`, 0, ErrUnexpected},
		{`99999999999999999999999`, 0, ErrUnexpected},
		{`1.0`, 0, ErrUnexpected},
		{`1e2`, 0, ErrUnexpected},
		{`1E0`, 0, ErrUnexpected},
		{`"1"`, 0, ErrUnexpected},
		{`null`, 0, ErrUnexpected},
		{`01`, 0, ErrSyntax},
		{`-`, 0, ErrSyntax},
		{`x`, 0, ErrSyntax},
	} {
		r := NewReader([]byte(tc.doc))
		got := r.Int()
		err := r.End()
		if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
			t.Errorf("Int of %s = %d, %v; want %d, %v", tc.doc, got, err, tc.want, tc.err)
		}
	}
}

// String unescapes as goccy/go-json (and encoding/json) do, lone
// surrogates included.
func TestReaderString(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{
		`""`, `"plain"`, `"\"\\\/\b\f\n\r\t"`, `"\u0000\u001f\u007f"`, `"\u00e9\u00E9é"`,
		`"\u2028\u2029"`, `"\ud83d\ude00"`, `"\uD83D\uDE00"`, `"\ud800"`, `"\udc00"`, `"\ud800x"`,
		`"\ud800\u0041"`, `"\ud800\ud800\udc00"`, `"\udc00\ud800"`, `"\ud800\\udc00"`, `"\ud800\n"`,
		`"\ufffd\uffff\ufeff"`, "\"\ufffd 世 🦅\"", `"a\u003cb\u0026c"`,
	} {
		r := NewReader([]byte(doc))
		got := r.String()
		if err := r.End(); err != nil {
			t.Errorf("%s: %v", doc, err)
			continue
		}
		var want, std string
		if err := gojson.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatalf("goccy/go-json refuses %s: %v", doc, err)
		}
		if err := json.Unmarshal([]byte(doc), &std); err != nil || std != want {
			t.Fatalf("%s: encoding/json %q, %v; goccy/go-json %q", doc, std, err, want)
		}
		if got != want {
			t.Errorf("String of %s = %q, want %q", doc, got, want)
		}
	}
}

func TestReaderBool(t *testing.T) {
	t.Parallel()
	for doc, want := range map[string]bool{`true`: true, `false`: false, ` true `: true} {
		r := NewReader([]byte(doc))
		if got := r.Bool(); got != want || r.End() != nil {
			t.Errorf("Bool of %q = %v, %v", doc, got, r.Err())
		}
	}
	r := NewReader([]byte(`1`))
	if r.Bool(); !errors.Is(r.End(), ErrUnexpected) {
		t.Errorf("Bool of 1: %v, want ErrUnexpected", r.Err())
	}
}

func TestReaderObject(t *testing.T) {
	t.Parallel()
	r := NewReader([]byte(`{"a":1, "b\u0061" : "x", "c":{"d":[true,null]}, "":[]}`))
	var keys []string
	var a int64
	var ba string
	for key := range r.Object() {
		keys = append(keys, string(key))
		switch string(key) {
		case "a":
			a = r.Int()
		case "ba":
			ba = r.String()
		default:
			r.Skip()
		}
	}
	if err := r.End(); err != nil || a != 1 || ba != "x" || !slices.Equal(keys, []string{"a", "ba", "c", ""}) {
		t.Fatalf("read keys %q, a=%d, ba=%q, %v", keys, a, ba, err)
	}

	// A body that leaves the value unread fails the Reader.
	r = NewReader([]byte(`{"a":1}`))
	for range r.Object() {
	}
	if err := r.End(); !errors.Is(err, ErrSyntax) {
		t.Fatalf("unread value: %v, want ErrSyntax", err)
	}

	// A body that stops the loop leaves the rest unread, which End refuses.
	r = NewReader([]byte(`{"a":1,"b":2}`))
	for range r.Object() {
		r.Skip()
		break
	}
	if err := r.End(); !errors.Is(err, ErrSyntax) {
		t.Fatalf("stopped loop: %v, want ErrSyntax", err)
	}

	// Another kind is ErrUnexpected and yields nothing.
	r = NewReader([]byte(`[1]`))
	for range r.Object() {
		t.Fatal("yielded a key of an array")
	}
	if !errors.Is(r.Err(), ErrUnexpected) {
		t.Fatalf("Object of an array: %v, want ErrUnexpected", r.Err())
	}
}

func TestReaderArray(t *testing.T) {
	t.Parallel()
	r := NewReader([]byte(`[ "a" , "b\n" ]`))
	var got []string
	for range r.Array() {
		got = append(got, r.String())
	}
	if err := r.End(); err != nil || !slices.Equal(got, []string{"a", "b\n"}) {
		t.Fatalf("read %q, %v", got, err)
	}
	r = NewReader([]byte(`[]`))
	for range r.Array() {
		t.Fatal("yielded an element of []")
	}
	if err := r.End(); err != nil {
		t.Fatal(err)
	}
}

// A failed Reader stays failed, with its first error.
func TestReaderSticky(t *testing.T) {
	t.Parallel()
	r := NewReader([]byte(`["x", 1]`))
	for range r.Array() {
		r.Int()
	}
	if !errors.Is(r.Err(), ErrUnexpected) || r.Kind() != Invalid || r.String() != "" || !errors.Is(r.End(), ErrUnexpected) {
		t.Fatalf("after a failure: %v, kind %v", r.Err(), r.Kind())
	}
}

func TestReaderAllocations(t *testing.T) {
	data := []byte(`{"name":"GoldFalcon","pid":4242,"session":{"toolCalls":3,"files":["a.go","b.go"]},"escaped\u00e9key":1.5e3}`)
	allocs := testing.AllocsPerRun(100, func() {
		r := NewReader(data)
		r.Skip()
		if r.End() != nil {
			t.Fatal(r.Err())
		}
	})
	// The Reader stays on the stack, and Skip does not unescape keys.
	if allocs != 0 {
		t.Errorf("Skip of a registration allocates %v times", allocs)
	}
}

// walk reads the next value with r and appends what it read, a token at a
// time in the words of tokens.
func walk(t *testing.T, r *Reader, out []string) []string {
	switch r.Kind() {
	case Object:
		out = append(out, "{")
		for key := range r.Object() {
			out = append(out, "s:"+string(key))
			out = walk(t, r, out)
		}
		return append(out, "}")
	case Array:
		out = append(out, "[")
		for range r.Array() {
			out = walk(t, r, out)
		}
		return append(out, "]")
	case String:
		return append(out, "s:"+r.String())
	case Number:
		trial := *r
		if n := trial.Int(); trial.Err() == nil {
			*r = trial
			return append(out, "i:"+strconv.FormatInt(n, 10))
		}
		r.Skip()
		return append(out, "n")
	case Bool:
		return append(out, "b:"+strconv.FormatBool(r.Bool()))
	}
	r.Skip()
	return append(out, "null")
}

// tokens returns the tokens of data as encoding/json reads them, in the
// words of walk.
func tokens(data []byte) ([]string, error) {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	var out []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch v := tok.(type) {
		case json.Delim:
			out = append(out, string(v))
		case string:
			out = append(out, "s:"+v)
		case json.Number:
			if n, err := strconv.ParseInt(string(v), 10, 64); err == nil && !strings.ContainsAny(string(v), ".eE") {
				out = append(out, "i:"+strconv.FormatInt(n, 10))
			} else {
				out = append(out, "n")
			}
		case bool:
			out = append(out, "b:"+strconv.FormatBool(v))
		case nil:
			out = append(out, "null")
		}
	}
}

// depth is how deeply data's arrays and objects nest.
func depth(data []byte) int {
	var q jsonscan.Quoted
	d, most := 0, 0
	for _, c := range data {
		if q.Step(c) {
			continue
		}
		switch c {
		case '[', '{':
			d++
			most = max(most, d)
		case ']', '}':
			d--
		}
	}
	return most
}

// FuzzReader checks the Reader against encoding/json and goccy/go-json:
// what it accepts is JSON to both (and, for an object, to goccy/go-json's
// Unmarshal into map[string]json.RawMessage, which registry.Decode runs
// first), and it accepts all valid UTF-8 JSON within MaxDepth; it reads
// the same strings and integers as encoding/json.
func FuzzReader(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,-0,2.5e3,true,null,"x\u00e9\ud800"],"b":{"c":""}}`, `[01]`, `{"a":1,}`,
		"\"\xff\"", `"\ud83d\ude00"`, `9223372036854775808`, `[[[[[]]]]]`, "{\"a\"\t:\r\n1}", `"\u0000"`, "{\"\":\"\x7f\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(data)
		got := walk(t, r, nil)
		err := r.End()
		valid := json.Valid(data) && utf8.Valid(data)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("%q: %v, want ErrSyntax", data, err)
			}
			if valid && depth(data) <= MaxDepth {
				t.Fatalf("refused valid JSON %q: %v", data, err)
			}
			return
		}
		if !valid {
			t.Fatalf("accepted %q, which encoding/json refuses", data)
		}
		if !gojson.Valid(data) {
			t.Fatalf("accepted %q, which goccy/go-json's Valid refuses", data)
		}
		if NewReader(data).Kind() == Object {
			var m map[string]gojson.RawMessage
			if err := gojson.Unmarshal(data, &m); err != nil {
				t.Fatalf("accepted %q, which goccy/go-json refuses as map[string]RawMessage: %v", data, err)
			}
		}
		want, err := tokens(data)
		if err != nil {
			t.Fatalf("encoding/json tokens of %q: %v", data, err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q:\nread %q\nwant %q", data, got, want)
		}
	})
}

func BenchmarkReaderSkip(b *testing.B) {
	data := []byte(`{"name":"GoldFalcon","pid":4242,"sessionId":"s-1","cwd":"/home/someone/projects/parley","model":"claude",` +
		`"isHuman":false,"session":{"toolCalls":3,"tokens":1200,"filesModified":["a.go"]},"heartbeatAt":"2026-11-30T10:00:00.000Z"}`)
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(data)
		r.Skip()
		if r.End() != nil {
			b.Fatal(r.Err())
		}
	}
}
