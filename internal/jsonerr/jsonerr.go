// Package jsonerr words what a JSON decoder says about a file a person
// wrote (config.json, an agent script, a file of labels) in that file's
// terms: a value of the wrong kind names its key path as the file spells
// it and the kind the key takes, never the Go struct behind it; an unknown
// key names the keys it is close to. Nothing is built until it is used.
package jsonerr

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/internal/suggest"
)

// unknownFieldRE takes the key out of the decoder's "unknown field".
var unknownFieldRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`unknown field "([^"]*)"`) })

// Explain is err in the file's words: a *json.UnmarshalTypeError as
// "turns.0.round: give a whole number, not a string"; an unknown field as
// `unknown key "rnd" (did you mean "round"?)`, suggesting among keys (the
// file's key names, from Keys), else with where the keys are listed (where;
// "": the keys themselves); any other error as it is.
func Explain(err error, keys []string, where string) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" && te.Type != nil {
		got := te.Value
		switch {
		case strings.HasPrefix(got, "number "):
			got = strings.TrimPrefix(got, "number ")
		case got == "array":
			got = "a list"
		case got == "object":
			got = "an object"
		case got == "bool":
			got = "true or false"
		default:
			got = "a " + got
		}
		return fmt.Errorf("%s: give %s, not %s", te.Field, kindOf(te.Type), got)
	}
	if m := unknownFieldRE().FindStringSubmatch(err.Error()); m != nil {
		var near []string
		for _, k := range keys {
			if suggest.Near(m[1], k) {
				near = append(near, fmt.Sprintf("%q", k))
			}
		}
		if len(near) > 0 {
			return fmt.Errorf("unknown key %q (did you mean %s?)", m[1], strings.Join(near, " or "))
		}
		if where == "" {
			where = "the keys are: " + strings.Join(keys, ", ")
		}
		return fmt.Errorf("unknown key %q (%s)", m[1], where)
	}
	return err
}

// kindOf says what a value of type t is in a JSON file's words.
func kindOf(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return kindOf(t.Elem())
	}
	return t.Kind().String()
}

// Keys are the key names a value of type t may hold in JSON, at any depth
// (the json names of its fields, of its embedded structs' fields and of
// the values of its maps and lists), sorted.
func Keys(t reflect.Type) []string {
	seen := map[string]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Map || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() && !f.Anonymous {
				continue
			}
			if name == "" && f.Anonymous { // its fields are the object's own
				walk(f.Type)
				continue
			}
			if name == "" {
				name = f.Name
			}
			if !seen[name] {
				seen[name] = true
				walk(f.Type)
			}
		}
	}
	walk(t)
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// At is err, an error of decoding data[start:] (data being the whole file
// a person edits), with where in data it is, so that a slip in a long file
// can be found: a syntax error as "line 3, column 38: invalid character
// '}' …", a comment (// or /* */, or #, which JSON has none of) as "line
// 1, column 3: a comment: JSON has none, remove it (invalid character
// '/' …)", the file ending inside a value as "the file ends before its
// JSON is complete (a } or ] is missing?)"; any other error as it is.
func At(err error, data []byte, start int) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se) && se.Offset > 0 && start+int(se.Offset) <= len(data):
		at := start + int(se.Offset) - 1 // the byte the decoder stopped at
		line := 1 + bytes.Count(data[:at], []byte("\n"))
		col := 1 + utf8.RuneCount(data[bytes.LastIndexByte(data[:at], '\n')+1:at])
		if rest := data[at:]; bytes.HasPrefix(rest, []byte("//")) || bytes.HasPrefix(rest, []byte("/*")) || rest[0] == '#' {
			return fmt.Errorf("line %d, column %d: a comment: JSON has none, remove it (%w)", line, col, err)
		}
		return fmt.Errorf("line %d, column %d: %w", line, col, err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("the file ends before its JSON is complete (a } or ] is missing?): %w", err)
	}
	return err
}

// Unknown is the first key of data, a JSON document, that a value of type
// t does not hold (matched whatever its case, as the decoder matches it),
// in the file's words: the line it is on, the object it is in (its key
// path, or "the top level"), and either the keys of that object it is
// close to, or, for a key of another object of t (a setting put one level
// off), where it goes ("debate.budgets.<layer>"), or else that object's
// keys. The decoder's own "unknown field" names the key alone, and
// suggests it to itself when it was only put in the wrong object. Unknown
// is nil when every key is known or data is no valid JSON (the decoder
// words that better).
func Unknown(data []byte, root reflect.Type) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var found error
	var walk func(path string, t reflect.Type, depth int) bool
	walk = func(path string, t reflect.Type, depth int) bool {
		tok, err := dec.Token()
		if err != nil || depth > maxDepth {
			return false
		}
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch tok {
		case json.Delim('{'):
			var fields map[string]field
			if t != nil && t.Kind() == reflect.Struct {
				fields = structFields(t)
			}
			for dec.More() {
				kt, err := dec.Token()
				k, ok := kt.(string)
				if err != nil || !ok {
					return false
				}
				var sub reflect.Type
				switch {
				case fields != nil:
					f, known := fields[strings.ToLower(k)]
					if !known {
						found = unknownKey(data, int(dec.InputOffset()), root, path, k, fields)
						return false
					}
					sub = f.typ
				case t != nil && t.Kind() == reflect.Map:
					sub = t.Elem()
				}
				if !walk(join(path, k), sub, depth+1) {
					return false
				}
			}
		case json.Delim('['):
			var elem reflect.Type
			if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
				elem = t.Elem()
			}
			for i := 0; dec.More(); i++ {
				if !walk(join(path, fmt.Sprint(i)), elem, depth+1) {
					return false
				}
			}
		default:
			return true
		}
		_, err = dec.Token() // the closing delimiter
		return err == nil
	}
	walk("", root, 0)
	return found
}

// maxDepth bounds how deeply Unknown follows a document.
const maxDepth = 32

// field is one key of a JSON object as the decoder reads it into a struct.
type field struct {
	name string // as the struct's tag spells it
	typ  reflect.Type
}

// structFields are the keys of struct t, by key in lower case: each
// field's JSON name, with the fields of an embedded struct as t's own.
func structFields(t reflect.Type) map[string]field {
	out := map[string]field{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported() && !f.Anonymous:
		case name == "" && f.Anonymous && f.Type.Kind() == reflect.Struct:
			for k, ef := range structFields(f.Type) {
				if _, ok := out[k]; !ok {
					out[k] = ef
				}
			}
		default:
			if name == "" {
				name = f.Name
			}
			out[strings.ToLower(name)] = field{name, f.Type}
		}
	}
	return out
}

// FieldTypes are the keys of struct t as encoding/json decodes them: each
// field's JSON key, in lower case, with its type, the fields of an
// embedded struct as t's own.
func FieldTypes(t reflect.Type) map[string]reflect.Type {
	fields := structFields(t)
	out := make(map[string]reflect.Type, len(fields))
	for k, f := range fields {
		out[k] = f.typ
	}
	return out
}

// join is a key path: "debate" and "budgets" make "debate.budgets".
func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// unknownKey words key k, unknown in the object at path (whose keys are
// fields) of a document of type root, which the decoder read up to offset
// off of data.
func unknownKey(data []byte, off int, root reflect.Type, path, k string, fields map[string]field) error {
	in := "at the top level"
	if path != "" {
		in = "in " + path
	}
	msg := fmt.Sprintf("unknown key %q %s", k, in)
	var names []string
	for _, f := range fields {
		names = append(names, f.name)
	}
	sort.Strings(names)
	var near []string
	for _, n := range names {
		if suggest.Near(k, n) {
			near = append(near, fmt.Sprintf("%q", n))
		}
	}
	switch elsewhere := placesOf(root, k); {
	case len(near) > 0:
		msg += " (did you mean " + strings.Join(near, " or ") + "?)"
	case len(elsewhere) > 0:
		msg += ": it goes in " + strings.Join(elsewhere, " or ")
	default:
		msg += " (its keys are: " + strings.Join(names, ", ") + ")"
	}
	if line, col, ok := keyAt(data, off); ok {
		msg = fmt.Sprintf("line %d, column %d: %s", line, col, msg)
	}
	return errors.New(msg)
}

// placesOf are the objects of a document of type root that hold key k
// (matched whatever its case), by key path: "debate.budgets.<layer>". The
// keys of a map read as its key type's name when it has one of its own
// ("<layer>"), else as the map's key without its plural ("models":
// "<model>"); a list's elements as "<n>".
func placesOf(root reflect.Type, k string) []string {
	k = strings.ToLower(k)
	var out []string
	var walk func(path string, t reflect.Type, name string, on map[reflect.Type]bool)
	walk = func(path string, t reflect.Type, name string, on map[reflect.Type]bool) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Map:
			key := strings.TrimSuffix(name, "s")
			if kt := t.Key(); kt.Name() != "" && kt.Name() != "string" {
				key = strings.ToLower(kt.Name())
			}
			walk(join(path, "<"+key+">"), t.Elem(), "", on)
		case reflect.Slice, reflect.Array:
			walk(join(path, "<n>"), t.Elem(), "", on)
		case reflect.Struct:
			if on[t] {
				return
			}
			on[t] = true
			defer delete(on, t)
			fields := structFields(t)
			if _, ok := fields[k]; ok {
				where := path
				if where == "" {
					where = "the top level"
				}
				out = append(out, where)
			}
			keys := make([]string, 0, len(fields))
			for lk := range fields {
				keys = append(keys, lk)
			}
			sort.Strings(keys)
			for _, lk := range keys {
				walk(join(path, fields[lk].name), fields[lk].typ, fields[lk].name, on)
			}
		}
	}
	walk("", root, "", map[reflect.Type]bool{})
	return out
}

// keyAt is the line and column of the key whose closing quote ends just
// before offset off of data.
func keyAt(data []byte, off int) (line, col int, ok bool) {
	if off < 2 || off > len(data) {
		return 0, 0, false
	}
	at := bytes.LastIndexByte(data[:off-1], '"') // the key's opening quote
	if at < 0 {
		return 0, 0, false
	}
	line = 1 + bytes.Count(data[:at], []byte("\n"))
	col = 1 + utf8.RuneCount(data[bytes.LastIndexByte(data[:at], '\n')+1:at])
	return line, col, true
}
