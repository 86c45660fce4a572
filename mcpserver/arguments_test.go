package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/inbox"
)

// TestArgumentsRefusedInParleysWords: arguments the SDK could not decode
// into a tool's input (a number too big for a whole number, a null, a
// value of the wrong kind) are tool errors that name the argument and what
// it takes, for every tool, never Go's or the schema validator's words.
func TestArgumentsRefusedInParleysWords(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, c := range []struct{ tool, args, want string }{
		{"consensus_search", `{"query":"x","limit":1e30}`, "limit: 1e30 is too large (at most 9223372036854775807)"},
		{"consensus_search", `{"query":"x","limit":99999999999999999999}`, "limit: 99999999999999999999 is too large (at most 9223372036854775807)"},
		{"consensus_search", `{"query":"x","limit":-1e19}`, "limit: -1e19 is too small (at least -9223372036854775808)"},
		{"consensus_search", `{"query":"x","limit":1.5}`, "limit: 1.5 is not a whole number"},
		{"consensus_search", `{"query":"x","limit":"3"}`, `limit: "3" is not a whole number`},
		{"consensus_search", `{"query":"x","foo":1}`, `consensus_search takes no argument "foo" (it takes layer, limit, query, status, verdict)`},
		{"consensus_search", `{}`, "consensus_search needs query"},
		{"send", `{"from":"a","to":"b","text":"x","type":null}`, "type: null is not allowed: give a string, or leave type out"},
		{"debate_start", `{"layer":"spec","topic":"t","agents":["a"],"max_rounds":1e30}`, "max_rounds: 1e30 is too large"},
		{"debate_submit_turn", `{"name":"a","request_id":"r","tokens":1e300}`, "tokens: 1e300 is too large"},
		{"debate_submit_turn", `{"name":"a","request_id":"r","evidence_refs":["a",null]}`, "evidence_refs[1]: null is not allowed: give a string"},
		{"recv", `{"as":null}`, "as: null is not allowed: give a string"},
		// A number beyond a float64 fits the schema's "number", but no Go
		// value: it is refused here, never by the decoder in its words.
		{"recv", `{"as":"a","wait_seconds":1e400}`, "wait_seconds: 1e400 is too large (at most 1.7976931348623157e+308)"},
		{"debate_next_turn", `{"name":"a","wait_seconds":-1e400}`, "wait_seconds: -1e400 is too small (at least -1.7976931348623157e+308)"},
		{"gate", `{"critique":"x","confidence":1e400}`, "confidence: 1e400 is too large"},
		{"consensus_search", `{"query":"x","limit":` + strings.Repeat("9", 200) + `}`, "limit: " + strings.Repeat("9", 39) + "… is too large"},
		{"consensus_search", `{"query":"x","limit":-` + strings.Repeat("9", 200) + `}`, "limit: -" + strings.Repeat("9", 38) + "… is too small"},
		{"consensus_search", `{"query":"x","limit":0.` + strings.Repeat("0", 200) + `1}`, "limit: 0." + strings.Repeat("0", 37) + "… is not a whole number"},
		{"consensus_search", `null`, "consensus_search needs query"},
		{"consensus_search", `[1]`, `consensus_search takes its arguments as an object ({"name": value, …}), not [1]`},
		{"consensus_search", `"x"`, `consensus_search takes its arguments as an object ({"name": value, …}), not "x"`},
	} {
		got := fails(t, e.client, c.tool, json.RawMessage(c.args))
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s %s:\n got %q\nwant %q", c.tool, c.args, got, c.want)
		}
		for _, internal := range []string{"Go struct", "mcpserver.", "reflect", "validating", "json:"} {
			if strings.Contains(got, internal) {
				t.Errorf("%s %s: %q names %q", c.tool, c.args, got, internal)
			}
		}
	}
	// What parses is the tool's to judge, as before.
	if got := fails(t, e.client, "consensus_search", json.RawMessage(`{"query":"x","limit":-5}`)); got != "limit: must be at least 1" {
		t.Errorf("limit -5: %q", got)
	}
	ok[SearchOutput](t, e.client, "consensus_search", json.RawMessage(`{"query":"x","limit":3}`))
}

// TestTooLongArgumentsSayWhichAndHowLong: a text argument over the 1 MiB
// bound is refused as that argument being too long, never with the
// messenger's "message too large" (it is no message).
func TestTooLongArgumentsSayWhichAndHowLong(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	long := strings.Repeat("x", inbox.MaxMessageBytes+1)
	want := func(field string) string {
		return fmt.Sprintf("%s is too long: %d bytes, at most %d", field, inbox.MaxMessageBytes+1, inbox.MaxMessageBytes)
	}
	for _, c := range []struct {
		tool, field string
		args        any
	}{
		{"consensus_search", "query", SearchInput{Query: long}},
		{"consensus_check", "topic", CheckInput{Layer: "spec", Topic: long, Position: "p"}},
		{"consensus_check", "position", CheckInput{Layer: "spec", Topic: "t", Position: long}},
		{"consensus_show", "name", ShowInput{Name: long}},
		{"debate_start", "scope", StartInput{Layer: "spec", Topic: "t", Scope: long, Agents: []string{"defender=@A", "attacker=@B"}}},
		{"debate_submit_turn", "text", SubmitInput{Name: "A", RequestID: "r", Position: "p", Text: long}},
	} {
		got := fails(t, e.client, c.tool, c.args)
		if got != want(c.field) {
			t.Errorf("%s with a long %s: %q, want %q", c.tool, c.field, got, want(c.field))
		}
	}
}

// TestArgumentsHaveOneJudge: argumentsError is the only judge of a tool's
// arguments, so it must know every keyword of every input schema a
// client is shown; a keyword it does not know would go unjudged.
func TestArgumentsHaveOneJudge(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tools, err := e.client.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	judged := map[string]bool{
		"type": true, "properties": true, "required": true, "additionalProperties": true, "items": true,
		"description": true, "title": true, // words for the model, no rule
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		m, ok := v.(map[string]any)
		if !ok {
			return // additionalProperties: false
		}
		for k, sub := range m {
			if !judged[k] {
				t.Errorf("%s: keyword %q is not judged by argumentsError", path, k)
			}
			switch k {
			case "properties":
				for name, p := range sub.(map[string]any) {
					walk(path+"."+name, p)
				}
			case "items", "additionalProperties":
				walk(path+"."+k, sub)
			}
		}
	}
	for _, tool := range tools.Tools {
		b, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var sc any
		if err := json.Unmarshal(b, &sc); err != nil {
			t.Fatal(err)
		}
		walk(tool.Name, sc)
	}
}
