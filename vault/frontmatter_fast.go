package vault

import (
	"bytes"
	"unicode/utf8"
)

// fastFrontmatter decodes the YAML of a frontmatter block into the values
// that yaml.v3 gives a map[string]any for it (with timestampsAsText), for
// the shapes parley writes and the simple ones people add beside them;
// ok is false for anything else, and the caller then decodes with yaml.v3.
// It reads, one per line ("\n" ends), "key: value" or "key:" where the key
// is [A-Za-z_][A-Za-z0-9_-]* and no key is given twice, and the value is
//
//   - empty (null), or followed by lines indented by two spaces that are
//     either all "  - item" (a list) or all "  key: value" (a mapping of
//     scalars and flow lists, one level deep);
//   - a double-quoted string on one line with the escapes Quote writes;
//   - a flow list "[a, "b"]" of such strings and plain items;
//   - a plain scalar that YAML can only read one way: a word starting with
//     a letter (a string, or true, false and null in their three spellings),
//     a decimal integer of at most 18 digits, or a date (a string:
//     timestamps are read as their text).
//
// Comments, blank lines, tabs, CR, other indentation, block scalars,
// single quotes, anchors, aliases, tags, flow mappings, floats, other
// numbers and escapes give false: what it returns is exactly what yaml.v3
// returns (TestFastFrontmatterAgreesWithYAML, FuzzFastFrontmatterAgreesWithYAML).
func fastFrontmatter(block []byte) (map[string]any, bool) {
	if len(block) == 0 || block[len(block)-1] != '\n' || bytes.IndexByte(block, '\r') >= 0 || bytes.IndexByte(block, '\t') >= 0 {
		return nil, false
	}
	m := make(map[string]any, 24)
	lines := block[:len(block)-1]
	for len(lines) > 0 {
		line, rest, _ := bytes.Cut(lines, []byte("\n"))
		lines = rest
		key, val, ok := fastKey(line)
		if !ok {
			return nil, false
		}
		if _, dup := m[key]; dup {
			return nil, false
		}
		if len(val) > 0 {
			v, ok := fastValue(val)
			if !ok {
				return nil, false
			}
			m[key] = v
			continue
		}
		// An empty value: null, or the indented lines that follow.
		var nested [][]byte
		for len(lines) > 0 && lines[0] == ' ' {
			l, r, _ := bytes.Cut(lines, []byte("\n"))
			lines = r
			if len(l) < 3 || l[0] != ' ' || l[1] != ' ' || l[2] == ' ' {
				return nil, false // another indentation
			}
			nested = append(nested, l[2:])
		}
		switch {
		case len(nested) == 0:
			m[key] = nil
		case nested[0][0] == '-':
			list := make([]any, 0, len(nested))
			for _, l := range nested {
				if len(l) < 3 || l[0] != '-' || l[1] != ' ' {
					return nil, false
				}
				v, ok := fastItem(l[2:], false)
				if !ok {
					return nil, false
				}
				list = append(list, v)
			}
			m[key] = list
		default:
			sub := make(map[string]any, len(nested))
			for _, l := range nested {
				k, val, ok := fastKey(l)
				if !ok {
					return nil, false
				}
				if _, dup := sub[k]; dup {
					return nil, false
				}
				var v any
				if len(val) > 0 {
					if v, ok = fastValue(val); !ok {
						return nil, false
					}
				}
				sub[k] = v
			}
			m[key] = sub
		}
	}
	return m, len(m) > 0 // a block of blank lines is YAML's null
}

// fastKey splits "key: value" or "key:"; the key must be one YAML reads
// as a string, and short (YAML takes no key of over 1024 characters
// without a "?").
func fastKey(line []byte) (key string, val []byte, ok bool) {
	colon := bytes.IndexByte(line, ':')
	if colon <= 0 || colon > 256 || !flatKey(line[:colon]) {
		return "", nil, false
	}
	key, val = string(line[:colon]), line[colon+1:]
	switch key {
	case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
		return "", nil, false
	}
	if len(val) == 0 {
		return key, nil, true
	}
	if val[0] != ' ' || len(val) == 1 || val[1] == ' ' {
		return "", nil, false
	}
	return key, val[1:], true
}

// fastValue is a scalar or a flow list of scalars.
func fastValue(v []byte) (any, bool) {
	if v[0] != '[' {
		return fastItem(v, false)
	}
	if string(v) == "[]" {
		return []any{}, true
	}
	if v[len(v)-1] != ']' {
		return nil, false
	}
	v = v[1 : len(v)-1]
	var list []any
	for {
		var item []byte
		if len(v) > 0 && v[0] == '"' {
			s, n, ok := flatQuoted(v)
			if !ok {
				return nil, false
			}
			list, v = append(list, s), v[n:]
		} else {
			i := bytes.IndexByte(v, ',')
			if i < 0 {
				i = len(v)
			}
			item, v = v[:i], v[i:]
			x, ok := fastItem(item, true)
			if !ok {
				return nil, false
			}
			list = append(list, x)
		}
		switch {
		case len(v) == 0:
			return list, true
		case len(v) > 2 && v[0] == ',' && v[1] == ' ' && v[2] != ' ':
			v = v[2:]
		default:
			return nil, false
		}
	}
}

// fastItem is a double-quoted string alone or a plain scalar; in a flow
// list (flow) a plain one may not hold ',', '[', ']', '{' or '}'.
func fastItem(v []byte, flow bool) (any, bool) {
	if len(v) == 0 {
		return nil, false
	}
	if v[0] == '"' {
		s, n, ok := flatQuoted(v)
		if !ok || n != len(v) {
			return nil, false
		}
		return s, true
	}
	if v[len(v)-1] == ' ' {
		return nil, false
	}
	switch c := v[0]; {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		if !fastPlain(v, flow) {
			return nil, false
		}
		switch string(v) {
		case "true", "True", "TRUE":
			return true, true
		case "false", "False", "FALSE":
			return false, true
		case "null", "Null", "NULL":
			return nil, true
		}
		return string(v), true
	case c >= '0' && c <= '9' || c == '-':
		if n, ok := fastInt(v); ok {
			return n, true
		}
		if isDate(v) {
			return string(v), true // a timestamp, read as its text
		}
	}
	return nil, false
}

// fastPlain is a plain scalar on one line that YAML reads as written:
// printable characters but the indicators that could start or end
// anything else (':', '#', quotes, '&', '*', '!', '|', '>', '%', '@',
// '`', '\\') and, in a flow list, the flow indicators.
func fastPlain(v []byte, flow bool) bool {
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case c < 0x20 || c == 0x7f:
			return false
		case c < utf8.RuneSelf:
			switch c {
			case ':', '#', '"', '\'', '&', '*', '!', '|', '>', '%', '@', '`', '\\':
				return false
			case ',', '[', ']', '{', '}':
				if flow {
					return false
				}
			}
			i++
		default:
			r, n := utf8.DecodeRune(v[i:])
			if r == utf8.RuneError && n == 1 || r < 0xA0 || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r >= 0xFFFE && r <= 0xFFFF {
				return false
			}
			i += n
		}
	}
	return true
}

// fastInt is "0" or a decimal integer without a leading zero, of at most
// 18 digits (it fits an int).
func fastInt(v []byte) (int, bool) {
	neg := v[0] == '-'
	d := v
	if neg {
		d = v[1:]
	}
	if len(d) == 0 || len(d) > 18 || d[0] == '0' && (len(d) > 1 || neg) {
		return 0, false
	}
	n := 0
	for _, c := range d {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// isDate is YYYY-MM-DD (any digits: YAML reads an impossible date as a
// string too).
func isDate(v []byte) bool {
	if len(v) != 10 || v[4] != '-' || v[7] != '-' {
		return false
	}
	for i, c := range v {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
