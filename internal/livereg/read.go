// Package livereg reads what an agent's liveness needs of its
// registration, without reflection (see internal/quicksend).
package livereg

import (
	"time"

	"github.com/parleyhq/parley/internal/jsonlite"
	"github.com/parleyhq/parley/internal/lean"
)

// Head is what deciding an agent's liveness reads of its registration.
type Head struct {
	Name        string
	PID         int
	Host        string
	HeartbeatAt string
}

// Read returns the Head of a registration file's content when
// registry.Decode would accept it and give these values (Name apart: Read
// does not validate it; its caller compares it with a valid name). ok is
// false for anything it cannot read with certainty; the caller then asks
// the registry.
//
// It reads a JSON object whose keys are those of registry.Registration
// exactly as the struct's tags spell them, each with a value of the field's
// type, and any other key with any value (pi-messenger writes more keys
// than parley knows). It refuses, though Decode takes some of them: a key
// that matches a known key only case-insensitively (Decode's decoder
// matches keys that way), a known key twice (Decode keeps the last), null
// for "name", "pid", "host" or "heartbeatAt" (null leaves a field as it
// was), a number that is not a plain integer, nesting deeper than
// jsonlite.MaxDepth, and anything jsonlite.Reader refuses. It is safe for
// concurrent use.
func Read(data []byte) (h Head, ok bool) {
	if len(data) > MaxRegistrationBytes {
		return Head{}, false
	}
	r := jsonlite.NewReader(data)
	seen, ok := readMembers(r, registration, &h)
	if !ok || r.End() != nil || !seen.has(registration, "name") || !seen.has(registration, "pid") || h.PID < 0 {
		return Head{}, false
	}
	if h.HeartbeatAt != "" {
		if _, err := time.Parse(time.RFC3339Nano, h.HeartbeatAt); err != nil {
			return Head{}, false
		}
	}
	return h, true
}

// valueKind is the kind of value registry.Decode takes for a key: what its
// decoder decodes into the field of registry.Registration (or of its
// Session or Activity) that the key names.
type valueKind uint8

const (
	text     valueKind = iota // a string
	integer                   // an int
	boolean                   // a bool
	texts                     // a []string
	session                   // a registry.Session
	activity                  // a registry.Activity
)

// headField is the field of Head a key's value goes to, if any.
type headField uint8

const (
	noField headField = iota
	nameField
	pidField
	hostField
	heartbeatField
)

// member is a key of a registration's object, or of one nested in it.
type member struct {
	key  string
	kind valueKind
	head headField
}

// The keys of registry.Registration, Session and Activity, as their json
// tags spell them (read_test.go checks them against the structs).
var (
	registration = []member{
		{"name", text, nameField},
		{"pid", integer, pidField},
		{"sessionId", text, noField},
		{"cwd", text, noField},
		{"model", text, noField},
		{"startedAt", text, noField},
		{"isHuman", boolean, noField},
		{"session", session, noField},
		{"activity", activity, noField},
		{"host", text, hostField},
		{"roles", texts, noField},
		{"protocol", text, noField},
		{"heartbeatAt", text, heartbeatField},
	}
	sessionMembers = []member{
		{"toolCalls", integer, noField},
		{"tokens", integer, noField},
		{"filesModified", texts, noField},
	}
	activityMembers = []member{
		{"lastActivityAt", text, noField},
	}
)

// memberSet is a set of the indexes of members (there are fewer than 32).
type memberSet uint32

func (s memberSet) has(members []member, key string) bool {
	for i, m := range members {
		if m.key == key {
			return s&(1<<i) != 0
		}
	}
	return false
}

// readMembers reads the next value, an object whose known keys are
// members, into h, and returns the members it has.
func readMembers(r *jsonlite.Reader, members []member, h *Head) (seen memberSet, ok bool) {
	if r.Kind() != jsonlite.Object {
		return 0, false
	}
	for key := range r.Object() {
		i, known := lookup(members, key)
		if !known {
			if i >= 0 {
				return 0, false // a known key in another case
			}
			r.Skip()
			continue
		}
		if seen&(1<<i) != 0 {
			return 0, false
		}
		seen |= 1 << i
		if !readValue(r, members[i], h) {
			return 0, false
		}
	}
	return seen, r.Err() == nil
}

// lookup returns the index of the member whose key is key, and true; or
// the index of one whose key is key in another case (as
// strings.EqualFold, and goccy/go-json, compare them), and false; or -1.
func lookup(members []member, key []byte) (int, bool) {
	for i, m := range members {
		if string(key) == m.key {
			return i, true
		}
	}
	for i, m := range members {
		if lean.EqualFold(string(key), m.key) {
			return i, false
		}
	}
	return -1, false
}

// readValue reads the value of member m, keeping it in h if Head has it.
func readValue(r *jsonlite.Reader, m member, h *Head) bool {
	k := r.Kind()
	if k == jsonlite.Null && m.head == noField {
		r.Skip() // null leaves the field as it was: zero, as no key repeats
		return true
	}
	switch m.kind {
	case text:
		if k != jsonlite.String {
			return false
		}
		switch m.head {
		case nameField:
			h.Name = r.String()
		case hostField:
			h.Host = r.String()
		case heartbeatField:
			h.HeartbeatAt = r.String()
		default:
			r.Skip()
		}
	case integer:
		n := r.Int()
		if int64(int(n)) != n {
			return false
		}
		if m.head == pidField {
			h.PID = int(n)
		}
	case boolean:
		r.Bool()
	case texts:
		for range r.Array() {
			if r.Kind() != jsonlite.String {
				return false
			}
			r.Skip()
		}
	case session:
		_, ok := readMembers(r, sessionMembers, h)
		return ok
	case activity:
		_, ok := readMembers(r, activityMembers, h)
		return ok
	}
	return r.Err() == nil
}
