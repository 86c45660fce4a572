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
// '}' …", the file ending inside a value as "the file ends before its JSON
// is complete (a } or ] is missing?)"; any other error as it is.
func At(err error, data []byte, start int) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se) && se.Offset > 0 && start+int(se.Offset) <= len(data):
		at := start + int(se.Offset) - 1 // the byte the decoder stopped at
		line := 1 + bytes.Count(data[:at], []byte("\n"))
		col := 1 + utf8.RuneCount(data[bytes.LastIndexByte(data[:at], '\n')+1:at])
		return fmt.Errorf("line %d, column %d: %w", line, col, err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("the file ends before its JSON is complete (a } or ] is missing?): %w", err)
	}
	return err
}
