package livereg_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/livereg"
	"github.com/parleyhq/parley/registry"
)

// agree checks the property Read promises: when it accepts data,
// registry.Decode accepts it too and gives the same Name, PID, Host and
// HeartbeatAt (when the name is valid: Decode validates names, Read leaves
// that to its caller). It returns whether Read accepted data.
func agree(t testing.TB, data []byte) bool {
	t.Helper()
	h, ok := livereg.Read(data)
	if !ok {
		if h != (livereg.Head{}) {
			t.Fatalf("Read refused %q but returned %+v", data, h)
		}
		return false
	}
	r, err := registry.Decode(data)
	if inbox.ValidateName(h.Name) != nil {
		if err == nil {
			t.Fatalf("Decode accepted %q, whose name %q is not valid", data, h.Name)
		}
		return true
	}
	if err != nil {
		t.Fatalf("Read accepted %q as %+v; Decode refuses it: %v", data, h, err)
	}
	if got := (livereg.Head{Name: r.Name, PID: r.PID, Host: r.Host, HeartbeatAt: r.HeartbeatAt}); got != h {
		t.Fatalf("%q: Read %+v, Decode %+v", data, h, got)
	}
	return true
}

func encode(t testing.TB, r registry.Registration) []byte {
	t.Helper()
	b, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// registrations are files as parley writes them, with the Head Read must
// find in each.
func registrations(t testing.TB) map[string]livereg.Head {
	full := registry.Registration{
		Name: "GoldFalcon", PID: 4242, SessionID: "s-1", Cwd: `/home/a "b" <c> & d/é/世界`, Model: "claude\n\t\x01",
		StartedAt: "2026-11-30T10:00:00.000Z", IsHuman: true,
		Session:  registry.Session{ToolCalls: 3, Tokens: -1, FilesModified: []string{"a.go", "</script>", "\u2028"}},
		Activity: registry.Activity{LastActivityAt: "2026-11-30T10:01:00.000Z"},
		Host:     "build-01.example", Roles: []string{"defender", "judge"}, Protocol: registry.Protocol,
		HeartbeatAt: "2026-11-30T10:01:00.123Z",
	}
	odd := full
	odd.Name, odd.PID, odd.Host, odd.HeartbeatAt = "a_b-9", 1<<62, "h\"o\\s<t>\u00e9\u2029", "2026-01-02T03:04:05.123456789+05:30"
	return map[string]livereg.Head{
		string(encode(t, registry.Registration{Name: "A"})):                      {Name: "A"},
		string(encode(t, registry.Registration{Name: "Bob", PID: 7, Host: "h"})): {Name: "Bob", PID: 7, Host: "h"},
		string(encode(t, full)): {Name: "GoldFalcon", PID: 4242, Host: "build-01.example", HeartbeatAt: "2026-11-30T10:01:00.123Z"},
		string(encode(t, odd)):  {Name: "a_b-9", PID: 1 << 62, Host: "h\"o\\s<t>\u00e9\u2029", HeartbeatAt: "2026-01-02T03:04:05.123456789+05:30"},
	}
}

// piMessenger is a registration as pi-messenger writes it: compact, with
// none of parley's keys and keys parley does not know.
const piMessenger = `{"name":"PiAgent","pid":4242,"sessionId":"abc","cwd":"/w","model":"claude","startedAt":"2026-11-30T10:00:00.000Z",` +
	`"isHuman":false,"session":{"toolCalls":3,"tokens":1200,"filesModified":["a.go"],"cost":0.25},` +
	`"activity":{"lastActivityAt":"2026-11-30T10:01:00.000Z","currentTool":null},` +
	`"gitBranch":"main","reservations":[{"path":"src/","since":1.7e12}],"extensions":{"x":[true,null,-0.5]}}`

func TestReadRegistrationsParleyWrites(t *testing.T) {
	t.Parallel()
	for data, want := range registrations(t) {
		h, ok := livereg.Read([]byte(data))
		if !ok || h != want {
			t.Errorf("Read(%s) = %+v, %v; want %+v", data, h, ok, want)
		}
		agree(t, []byte(data))
	}
}

func TestReadPiMessenger(t *testing.T) {
	t.Parallel()
	h, ok := livereg.Read([]byte(piMessenger))
	if want := (livereg.Head{Name: "PiAgent", PID: 4242}); !ok || h != want {
		t.Fatalf("Read = %+v, %v; want %+v", h, ok, want)
	}
	agree(t, []byte(piMessenger))
}

func TestReadAccepts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, doc string
		want      livereg.Head
	}{
		{"minimal", `{"name":"A","pid":0}`, livereg.Head{Name: "A"}},
		{"whitespace around", " \r\n\t{ \"pid\" : 1 , \"name\" : \"A\" }\n", livereg.Head{Name: "A", PID: 1}},
		{"escaped values", `{"name":"B\u006fb","pid":1,"host":"a\/b\u00e9\ud83e\udd85","heartbeatAt":"2026-11-30T10:00:00Z"}`,
			livereg.Head{Name: "Bob", PID: 1, Host: "a/bé🦅", HeartbeatAt: "2026-11-30T10:00:00Z"}},
		{"escaped known key", `{"n\u0061me":"A","pid":1}`, livereg.Head{Name: "A", PID: 1}},
		{"lone surrogate", `{"name":"A","pid":1,"host":"\ud800x"}`, livereg.Head{Name: "A", PID: 1, Host: "\ufffdx"}},
		{"empty heartbeat", `{"name":"A","pid":1,"heartbeatAt":""}`, livereg.Head{Name: "A", PID: 1}},
		{"negative zero pid", `{"name":"A","pid":-0}`, livereg.Head{Name: "A"}},
		{"largest pid", `{"name":"A","pid":9223372036854775807}`, livereg.Head{Name: "A", PID: 1<<63 - 1}},
		{"null for fields it only checks", `{"name":"A","pid":1,"sessionId":null,"isHuman":null,"session":null,"activity":null,"roles":null}`,
			livereg.Head{Name: "A", PID: 1}},
		{"null in nested fields", `{"name":"A","pid":1,"session":{"tokens":null,"filesModified":null},"activity":{"lastActivityAt":null}}`,
			livereg.Head{Name: "A", PID: 1}},
		{"unknown keys of every kind", `{"name":"A","pid":1,"":1,"x":null,"y":[{"z":[]}],"w":"\u0000","v":-1.5E+3,"u":true,"x":2}`,
			livereg.Head{Name: "A", PID: 1}},
		{"known nested keys at the top", `{"name":"A","pid":1,"tokens":"x","lastActivityAt":5}`, livereg.Head{Name: "A", PID: 1}},
		{"top keys nested", `{"name":"A","pid":1,"session":{"pid":"x","name":1}}`, livereg.Head{Name: "A", PID: 1}},
		{"key with NUL", `{"name":"A","pid":1,"pid\u0000":"x"}`, livereg.Head{Name: "A", PID: 1}},
		{"invalid name (for the caller to refuse)", `{"name":"../x","pid":1}`, livereg.Head{Name: "../x", PID: 1}},
		{"largest file", `{"name":"A","pid":1}` + strings.Repeat(" ", registry.MaxRegistrationBytes-len(`{"name":"A","pid":1}`)),
			livereg.Head{Name: "A", PID: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, ok := livereg.Read([]byte(tc.doc))
			if !ok || h != tc.want {
				t.Fatalf("Read(%s) = %+v, %v; want %+v", tc.doc, h, ok, tc.want)
			}
			agree(t, []byte(tc.doc))
		})
	}
}

// Read refuses what Decode refuses, and some of what Decode takes in ways
// Read does not follow with certainty (decodes says which: the table keeps
// track of what goccy/go-json does).
func TestReadRefuses(t *testing.T) {
	t.Parallel()
	deep := func(n int) string {
		return `{"name":"A","pid":1,"x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
	}
	for _, tc := range []struct {
		name, doc string
		decodes   bool
	}{
		// What Decode refuses.
		{"empty", ``, false},
		{"not an object", `["name","A"]`, false},
		{"null", `null`, false},
		{"no name", `{"pid":1}`, false},
		{"no pid", `{"name":"A"}`, false},
		{"negative pid", `{"name":"A","pid":-3}`, false},
		{"pid as a string", `{"name":"A","pid":"7"}`, false},
		{"pid with a fraction", `{"name":"A","pid":1.0}`, false},
		{"pid with an exponent", `{"name":"A","pid":1e2}`, false},
		{"pid out of range", `{"name":"A","pid":9223372036854775808}`, false},
		{"pid with a leading zero", `{"name":"A","pid":01}`, false},
		{"name as a number", `{"name":1,"pid":1}`, false},
		{"host as a number", `{"name":"A","pid":1,"host":1}`, false},
		{"isHuman as a string", `{"name":"A","pid":1,"isHuman":"true"}`, false},
		{"roles as a string", `{"name":"A","pid":1,"roles":"judge"}`, false},
		{"a role as a number", `{"name":"A","pid":1,"roles":["a",1]}`, false},
		{"session as an array", `{"name":"A","pid":1,"session":[]}`, false},
		{"tokens as a string", `{"name":"A","pid":1,"session":{"tokens":"x"}}`, false},
		{"tokens out of range", `{"name":"A","pid":1,"session":{"tokens":-9223372036854775809}}`, false},
		{"lastActivityAt as a bool", `{"name":"A","pid":1,"activity":{"lastActivityAt":true}}`, false},
		{"bad heartbeat", `{"name":"A","pid":1,"heartbeatAt":"yesterday"}`, false},
		{"heartbeat with lower-case z", `{"name":"A","pid":1,"heartbeatAt":"2026-01-02T03:04:05z"}`, false},
		{"trailing garbage", `{"name":"A","pid":1} x`, false},
		{"two objects", `{"name":"A","pid":1}{}`, false},
		{"trailing comma", `{"name":"A","pid":1,}`, false},
		{"byte-order mark", "\ufeff{\"name\":\"A\",\"pid\":1}", false},
		{"invalid UTF-8", "{\"name\":\"A\",\"pid\":1,\"x\":\"\xff\"}", false},
		{"raw control in a string", "{\"name\":\"A\",\"pid\":1,\"x\":\"\t\"}", false},
		{"bad escape", `{"name":"A","pid":1,"x":"\x41"}`, false},
		{"form feed as space", "{\"name\":\"A\",\"pid\":1,\f\"x\":1}", false},
		{"over the size limit", `{"name":"A","pid":1}` + strings.Repeat(" ", registry.MaxRegistrationBytes), false},
		{"nesting over goccy's limit", `{"name":"A","pid":1,"x":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`, false},

		// What Decode takes but Read leaves to it.
		{"key in another case", `{"name":"A","pid":1,"HOST":"x"}`, true},
		{"name in another case too", `{"name":"A","Name":"B","pid":1}`, true},
		{"long s for s", `{"name":"A","pid":1,"ſessionId":"x"}`, true},
		{"Kelvin sign for k", `{"name":"A","pid":1,"session":{"to\u212aens":1}}`, true},
		{"nested key in another case", `{"name":"A","pid":1,"session":{"ToolCalls":1}}`, true},
		{"duplicate pid", `{"name":"A","pid":1,"pid":2}`, true},
		{"duplicate host", `{"name":"A","pid":1,"host":"a","host":"b"}`, true},
		{"duplicate session", `{"name":"A","pid":1,"session":{},"session":{}}`, true},
		{"duplicate nested key", `{"name":"A","pid":1,"session":{"tokens":1,"tokens":2}}`, true},
		{"null pid", `{"name":"A","pid":null}`, true},
		{"null host", `{"name":"A","pid":1,"host":null}`, true},
		{"null heartbeat", `{"name":"A","pid":1,"heartbeatAt":null}`, true},
		{"null among roles", `{"name":"A","pid":1,"roles":[null]}`, true},
		{"nesting deeper than jsonlite's limit", deep(64), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if h, ok := livereg.Read([]byte(tc.doc)); ok {
				t.Errorf("Read accepted %.200q as %+v", tc.doc, h)
			}
			if _, err := registry.Decode([]byte(tc.doc)); (err == nil) != tc.decodes {
				t.Errorf("Decode(%.200q) = %v; the table says it decodes: %v", tc.doc, err, tc.decodes)
			}
		})
	}
	// The limit is jsonlite's: just within it is read.
	if _, ok := livereg.Read([]byte(deep(62))); !ok {
		t.Error("Read refused nesting within jsonlite.MaxDepth")
	}
}

// field is a key of registry.Registration, or of a struct nested in it,
// found by reflection from the struct's tags.
type field struct {
	path []string // the keys down to it
	typ  reflect.Type
}

func fields(t reflect.Type, path []string) []field {
	var out []field
	for f := range t.Fields() {
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		p := append(append([]string(nil), path...), key)
		if f.Type.Kind() == reflect.Struct {
			out = append(out, fields(f.Type, p)...)
		}
		out = append(out, field{p, f.Type})
	}
	return out
}

// doc is a registration with name A and pid 1 and value at path (which
// replaces "name" or "pid").
func doc(path []string, value string) string {
	v := value
	for i := len(path) - 1; i > 0; i-- {
		v = `{"` + path[i] + `":` + v + `}`
	}
	switch path[0] {
	case "name":
		return `{"name":` + v + `,"pid":1}`
	case "pid":
		return `{"name":"A","pid":` + v + `}`
	}
	return `{"name":"A","pid":1,"` + path[0] + `":` + v + `}`
}

// Every key of registry.Registration, with a value of every kind: Read
// accepts one of the field's type and refuses the key in other cases, and
// whatever it accepts Decode decodes alike. A field added to Registration
// that Read does not know fails here.
func TestReadEveryField(t *testing.T) {
	t.Parallel()
	values := []string{`"x"`, `""`, `"2026-11-30T10:00:00Z"`, `0`, `7`, `-7`, `1.5`, `1e3`, `true`, `false`, `null`,
		`[]`, `["a"]`, `[1]`, `[null]`, `{}`, `{"a":1}`, `{"tokens":1}`}
	good := map[reflect.Kind]string{reflect.String: `"x"`, reflect.Int: `7`, reflect.Bool: `true`, reflect.Slice: `["a"]`, reflect.Struct: `{}`}
	all := fields(reflect.TypeFor[registry.Registration](), nil)
	if len(all) != 17 {
		t.Errorf("registry.Registration has %d keys, nested ones included; Read knows 17", len(all))
	}
	for _, f := range all {
		name := strings.Join(f.path, ".")
		for _, v := range values {
			agree(t, []byte(doc(f.path, v)))
		}
		v, known := good[f.typ.Kind()]
		if !known || f.typ.Kind() == reflect.Slice && f.typ.Elem().Kind() != reflect.String {
			t.Errorf("%s is a %v, which Read does not read", name, f.typ)
			continue
		}
		switch name {
		case "name":
			v = `"A"`
		case "heartbeatAt":
			v = `"2026-11-30T10:00:00Z"`
		}
		if !agree(t, []byte(doc(f.path, v))) {
			t.Errorf("Read refused %s", doc(f.path, v))
		}
		last := len(f.path) - 1
		for _, other := range []string{strings.ToUpper(f.path[last]), strings.ToUpper(f.path[last][:1]) + f.path[last][1:],
			strings.ReplaceAll(f.path[last], "s", "ſ"), strings.ReplaceAll(f.path[last], "k", "\u212a")} {
			if other == f.path[last] {
				continue
			}
			p := append(append([]string(nil), f.path[:last]...), other)
			d := `{"name":"A","pid":1,` + strings.TrimPrefix(doc(p, v), `{"name":"A","pid":1,`)
			if f.path[0] == "name" || f.path[0] == "pid" {
				d = `{"name":"A","pid":1,"` + other + `":` + v + `}`
			}
			if agree(t, []byte(d)) {
				t.Errorf("Read accepted %s", d)
			}
		}
	}
}

func FuzzRead(f *testing.F) {
	for data := range registrations(f) {
		f.Add([]byte(data))
	}
	f.Add([]byte(piMessenger))
	for _, s := range []string{
		`{"name":"A","pid":1}`, `{"name":"A","pid":-0}`, `{"name":"A","pid":-1}`, `{"name":"A","pid":1.0}`,
		`{"name":"A","pid":9223372036854775807}`, `{"name":"A","pid":9223372036854775808}`, `{"name":"A","pid":"1"}`,
		`{"name":"A","pid":null}`, `{"name":null,"pid":1}`, `{"name":"A","pid":1,"host":null}`,
		`{"name":"A","pid":1,"PID":2}`, `{"name":"A","pid":1,"pid":2}`, `{"Name":"A","pid":1}`, `{"name":"A","pid":1,"ſessionId":"x"}`,
		`{"name":"A","pid":1,"session":{"to\u212aens":1}}`, `{"n\u0061me":"A","pid":1}`, `{"name":"A","p\u0069d":1,"h\u006fst":"x"}`,
		`{"name":"A","pid":1,"pid\u0000":"x"}`, `{"name":"A","pid":1,"host":"\ud800\udc00\ud800"}`,
		`{"name":"A","pid":1,"heartbeatAt":"2026-11-30T10:00:00.1234567891Z"}`, `{"name":"A","pid":1,"heartbeatAt":"2026-13-40T99:00:00Z"}`,
		`{"name":"A","pid":1,"roles":[null]}`, `{"name":"A","pid":1,"session":{"filesModified":null}}`,
		`{"name":"A","pid":1,"x":[[[[{"a":[]}]]]]}`, `{"name":"A","pid":1} `, `{"name":"A","pid":1}x`, `{"name":"A","pid":01}`,
		"{\"name\":\"A\",\"pid\":1,\"x\":\"\t\"}", "\ufeff{\"name\":\"A\",\"pid\":1}", `{"name":"A","pid":1e400}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		agree(t, data)
	})
}

func ExampleRead() {
	h, ok := livereg.Read([]byte(`{"name":"GoldFalcon","pid":4242,"host":"build-01","heartbeatAt":"2026-11-30T10:00:00.000Z","gitBranch":"main"}`))
	fmt.Println(h.Name, h.PID, h.Host, h.HeartbeatAt, ok)
	_, ok = livereg.Read([]byte(`{"name":"GoldFalcon","pid":4242,"PID":1}`))
	fmt.Println(ok) // Decode's decoder would match "PID" to pid: left to it
	// Output:
	// GoldFalcon 4242 build-01 2026-11-30T10:00:00.000Z true
	// false
}

func BenchmarkRead(b *testing.B) {
	data := encode(b, registry.Registration{Name: "GoldFalcon", PID: 4242, SessionID: "s-1", Cwd: "/home/someone/parley",
		Roles: []string{"defender"}, Host: "build-01", HeartbeatAt: "2026-11-30T10:01:00.123Z"})
	b.Run("Read", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := livereg.Read(data); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("registry.Decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := registry.Decode(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
