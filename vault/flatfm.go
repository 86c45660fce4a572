package vault

import (
	"bytes"
	"unicode/utf8"
)

// FlatValue is one value of a flat frontmatter: a string, a list of
// strings, or null (an empty value or "null").
type FlatValue struct {
	Str    string
	List   []string
	IsList bool
	Null   bool
}

// DecodeFlatFrontmatter is a fast path for the frontmatter parley writes
// (Frontmatter.Marshal): "---", then one "key: value" line per key where
// the value is empty, a double-quoted string on one line, a flow list of
// double-quoted strings, or a plain word of letters, digits, '_', '.',
// '+' and '-', then "---". It returns the keys, the body after the
// closing line, and ok. Anything else a person may write by hand
// (comments, block or nested values, single quotes, anchors, tags,
// escapes Marshal does not write, duplicate keys, CR line ends, a page
// over the size limits) gives ok false: the caller then decodes with
// DecodeFrontmatter, which reads all of YAML. When ok, the values are
// those DecodeFrontmatter gives for string and []string fields (tested
// against it, including by fuzzing).
func DecodeFlatFrontmatter(page []byte) (fm map[string]FlatValue, body []byte, ok bool) {
	fm = make(map[string]FlatValue, 24)
	body, ok = ScanFlatFrontmatter(page, func(key []byte, v FlatValue) bool {
		fm[string(key)] = v
		return true
	})
	if !ok {
		return nil, nil, false
	}
	return fm, body, true
}

// ScanFlatFrontmatter is DecodeFlatFrontmatter without the map: it calls
// fn with each key (valid during the call) and its value, in order, and
// returns the body; ok is false as DecodeFlatFrontmatter says, or when fn
// returns false. fn may have been called for some keys before ok turns
// out false: the caller then drops what it gathered.
func ScanFlatFrontmatter(page []byte, fn func(key []byte, v FlatValue) bool) (body []byte, ok bool) {
	if len(page) > MaxPageBytes || !bytes.HasPrefix(page, []byte("---\n")) {
		return nil, false
	}
	rest := page[4:]
	var seen [32][]byte // the keys so far (more go to YAML)
	n := 0
	for {
		nl := bytes.IndexByte(rest, '\n')
		var line []byte
		if nl < 0 {
			line, rest = rest, nil
		} else {
			line, rest = rest[:nl], rest[nl+1:]
		}
		if string(line) == "---" {
			if len(page)-len(rest) > MaxFrontmatterBytes {
				return nil, false
			}
			return rest, true
		}
		if nl < 0 {
			return nil, false // no closing line
		}
		key, v, ok := flatLine(line)
		if !ok || n == len(seen) {
			return nil, false
		}
		for _, k := range seen[:n] {
			if bytes.Equal(k, key) {
				return nil, false
			}
		}
		seen[n] = key
		n++
		if !fn(key, v) {
			return nil, false
		}
	}
}

// flatLine parses `key: value` or `key:`.
func flatLine(line []byte) ([]byte, FlatValue, bool) {
	colon := bytes.IndexByte(line, ':')
	if colon <= 0 || colon > 256 || !flatKey(line[:colon]) { // YAML takes no longer key without "?"
		return nil, FlatValue{}, false
	}
	key := line[:colon]
	val := line[colon+1:]
	if len(val) == 0 {
		return key, FlatValue{Null: true}, true
	}
	if val[0] != ' ' || len(val) == 1 {
		return nil, FlatValue{}, false
	}
	val = val[1:]
	switch val[0] {
	case '"':
		s, n, ok := flatQuoted(val)
		if !ok || n != len(val) {
			return nil, FlatValue{}, false
		}
		return key, FlatValue{Str: s}, true
	case '[':
		list, ok := flatList(val)
		if !ok {
			return nil, FlatValue{}, false
		}
		return key, FlatValue{List: list, IsList: true}, true
	}
	if !flatPlain(val) {
		return nil, FlatValue{}, false
	}
	switch string(val) {
	case "null", "Null", "NULL":
		return key, FlatValue{Null: true}, true
	}
	return key, FlatValue{Str: string(val)}, true
}

// flatKey is Marshal's key syntax, [A-Za-z_][A-Za-z0-9_-]*.
func flatKey(k []byte) bool {
	for i, c := range k {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// flatPlain is a plain word: it starts with a letter or digit and holds
// only letters, digits, '_', '.', '+' and '-' (a date, a number, true),
// which YAML gives to a string field as written.
func flatPlain(v []byte) bool {
	for i, c := range v {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case i > 0 && (c == '_' || c == '.' || c == '+' || c == '-'):
		default:
			return false
		}
	}
	return len(v) > 0
}

// flatList parses `[]` or `["a", "b"]`, exactly as Marshal writes it.
func flatList(v []byte) ([]string, bool) {
	if string(v) == "[]" {
		return []string{}, true
	}
	v = v[1:]
	var out []string
	for {
		if len(v) == 0 || v[0] != '"' {
			return nil, false
		}
		s, n, ok := flatQuoted(v)
		if !ok {
			return nil, false
		}
		out = append(out, s)
		v = v[n:]
		switch {
		case string(v) == "]":
			return out, true
		case bytes.HasPrefix(v, []byte(", ")):
			v = v[2:]
		default:
			return nil, false
		}
	}
}

// flatQuoted reads a double-quoted scalar at the start of v and returns
// its value and length. It accepts the escapes Quote writes (\" \\ \n \r
// \t \uXXXX, no surrogates) and printable characters that are no YAML
// line break; anything else is left to the YAML decoder.
func flatQuoted(v []byte) (string, int, bool) {
	// b holds the value once an escape is met; until then it is v[1:i].
	var b []byte
	esc := false
	for i := 1; i < len(v); {
		c := v[i]
		switch {
		case c == '"':
			if !esc {
				return string(v[1:i]), i + 1, true
			}
			return string(b), i + 1, true
		case c == '\\':
			if i+1 >= len(v) {
				return "", 0, false
			}
			if !esc {
				b, esc = append(make([]byte, 0, len(v)), v[1:i]...), true
			}
			switch v[i+1] {
			case '"', '\\':
				b = append(b, v[i+1])
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				if i+6 > len(v) {
					return "", 0, false
				}
				r := rune(0)
				for _, h := range v[i+2 : i+6] {
					switch {
					case h >= '0' && h <= '9':
						r = r<<4 | rune(h-'0')
					case h >= 'a' && h <= 'f':
						r = r<<4 | rune(h-'a'+10)
					case h >= 'A' && h <= 'F':
						r = r<<4 | rune(h-'A'+10)
					default:
						return "", 0, false
					}
				}
				if r >= 0xD800 && r <= 0xDFFF {
					return "", 0, false
				}
				b = utf8.AppendRune(b, r)
				i += 6
				continue
			default:
				return "", 0, false
			}
			i += 2
		case c >= 0x20 && c < 0x7f:
			if esc {
				b = append(b, c)
			}
			i++
		case c < 0x80:
			return "", 0, false // a control character, DEL
		default:
			r, n := utf8.DecodeRune(v[i:])
			if r == utf8.RuneError && n == 1 || r < 0xA0 || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF {
				return "", 0, false
			}
			if esc {
				b = append(b, v[i:i+n]...)
			}
			i += n
		}
	}
	return "", 0, false
}
