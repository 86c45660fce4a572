package mcpserver

import (
	"context"
	stdjson "encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/internal/clip"
)

// addTool registers a tool whose arguments have one judge: argumentsError,
// against the tool's input schema (derived from In unless the tool sets
// one), which refuses in parley's words every argument that does not fit
// it, as a tool error (isError) that names the argument and what it
// takes. What it lets through decodes into In and goes to h. The result
// is as mcp.AddTool makes it: h's error is a tool error; out is the
// structured content and, unless h set the content, its JSON as text.
//
// The SDK's typed mcp.AddTool is not used: it judges the arguments
// against the schema again, in the words of its validator and of Go
// ("validating \"arguments\": …", "cannot unmarshal … into Go struct
// field …"), and a second judge that disagrees with the first is how an
// argument ends up refused in those words.
func addTool[In, Out any](s *Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	if t.InputSchema == nil {
		t.InputSchema = schemaFor[In]()
	}
	if t.OutputSchema == nil {
		t.OutputSchema = schemaFor[Out]()
	}
	in := t.InputSchema.(*jsonschema.Schema)
	s.mcp.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// A call that waits (recv, debate_next_turn) ends when the Server
		// closes, so that a shutdown answers it rather than cutting it.
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stop := context.AfterFunc(s.base, cancel)
		defer stop()
		args, err := decodeArguments[In](t.Name, in, req.Params.Arguments)
		var (
			res *mcp.CallToolResult
			out Out
		)
		if err == nil {
			res, out, err = h(ctx, req, args)
		}
		if err != nil {
			var r mcp.CallToolResult
			r.SetError(err)
			return &r, nil
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		b, err := stdjson.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("%s: marshaling its result: %w", t.Name, err)
		}
		res.StructuredContent = stdjson.RawMessage(b)
		if res.Content == nil {
			res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
		}
		return res, nil
	})
}

// schemaFor is the JSON schema of T, which must have one (a programming
// error otherwise).
func schemaFor[T any]() *jsonschema.Schema {
	sc, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err)
	}
	return sc
}

// decodeArguments is a tool's arguments, judged against its input schema
// (argumentsError) and decoded into In. Arguments left out, or null, are
// the zero In.
func decodeArguments[In any](tool string, sc *jsonschema.Schema, raw stdjson.RawMessage) (In, error) {
	var in In
	if err := argumentsError(tool, sc, raw); err != nil {
		return in, err
	}
	if len(raw) == 0 || kindOf(raw) == "null" {
		return in, nil
	}
	if err := stdjson.Unmarshal(raw, &in); err != nil {
		// Only JSON that does not parse, which a client cannot send.
		return in, invalidf("%s: its arguments do not parse: %v", tool, err)
	}
	return in, nil
}

// argumentsError is what is wrong with a tool's arguments against its
// input schema, in parley's words; nil when nothing is. Arguments left
// out, or null, are no arguments; JSON that does not parse is
// decodeArguments' to refuse.
func argumentsError(tool string, sc *jsonschema.Schema, raw stdjson.RawMessage) error {
	var args map[string]stdjson.RawMessage
	if len(raw) > 0 && kindOf(raw) != "null" {
		if !stdjson.Valid(raw) {
			return nil
		}
		if kindOf(raw) != "object" {
			return invalidf("%s takes its arguments as an object ({\"name\": value, …}), not %s", tool, clip.Line(string(raw), 40))
		}
		if stdjson.Unmarshal(raw, &args) != nil {
			return nil
		}
	}
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		prop := sc.Properties[name]
		if prop == nil {
			if sc.AdditionalProperties == nil {
				continue
			}
			return invalidf("%s takes no argument %q (it takes %s)", tool, clip.Runes(name, 50), strings.Join(propertyNames(sc), ", "))
		}
		if err := valueError(name, prop, args[name], !slices.Contains(sc.Required, name)); err != nil {
			return err
		}
	}
	for _, name := range sc.Required {
		if _, ok := args[name]; !ok {
			return invalidf("%s needs %s", tool, name)
		}
	}
	return nil
}

// propertyNames are a schema's properties, sorted.
func propertyNames(sc *jsonschema.Schema) []string {
	names := make([]string, 0, len(sc.Properties))
	for name := range sc.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// valueError is what is wrong with v as argument name of schema prop.
func valueError(name string, prop *jsonschema.Schema, v stdjson.RawMessage, optional bool) error {
	types := prop.Types
	if prop.Type != "" {
		types = []string{prop.Type}
	}
	if len(types) == 0 {
		return nil // any value
	}
	got := kindOf(v)
	if got == "number" && slices.Contains(types, "number") {
		if f, err := strconv.ParseFloat(strings.TrimSpace(string(v)), 64); err != nil {
			if f < 0 {
				return invalidf("%s: %s is too small (at least %g)", name, clip.Line(string(v), 40), -math.MaxFloat64)
			}
			return invalidf("%s: %s is too large (at most %g)", name, clip.Line(string(v), 40), math.MaxFloat64)
		}
	}
	if slices.Contains(types, got) || (got == "integer" && slices.Contains(types, "number")) {
		if got == "array" && prop.Items != nil {
			var items []stdjson.RawMessage
			if stdjson.Unmarshal(v, &items) == nil {
				for i, item := range items {
					if err := valueError(fmt.Sprintf("%s[%d]", name, i), prop.Items, item, false); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	want := wanted(types)
	if got == "number" && slices.Contains(types, "integer") {
		n := clip.Line(string(v), 40)
		switch f, ok := integral(string(v)); {
		case !ok:
			return invalidf("%s: %s is not a whole number", name, n)
		case f.Cmp(new(big.Float).SetInt64(math.MaxInt)) > 0:
			return invalidf("%s: %s is too large (at most %d)", name, n, math.MaxInt)
		case f.Cmp(new(big.Float).SetInt64(math.MinInt)) < 0:
			return invalidf("%s: %s is too small (at least %d)", name, n, math.MinInt)
		default:
			return invalidf("%s: write %s as a whole number, in digits only", name, n)
		}
	}
	if got == "null" {
		if optional {
			return invalidf("%s: null is not allowed: give %s, or leave %s out", name, want, name)
		}
		return invalidf("%s: null is not allowed: give %s", name, want)
	}
	return invalidf("%s: %s is not %s", name, clip.Line(string(v), 40), want)
}

// kindOf is the JSON type of v as a schema names it; "integer" for a
// number that is a whole number within the range of an int, "number" for
// any other number.
func kindOf(v stdjson.RawMessage) string {
	switch s := strings.TrimSpace(string(v)); {
	case s == "null":
		return "null"
	case s == "true" || s == "false":
		return "boolean"
	case strings.HasPrefix(s, `"`):
		return "string"
	case strings.HasPrefix(s, "["):
		return "array"
	case strings.HasPrefix(s, "{"):
		return "object"
	default:
		if _, err := strconv.ParseInt(s, 10, strconv.IntSize); err == nil {
			return "integer"
		}
		return "number"
	}
}

// integral is the JSON number s when it is a whole number (1e30, 5.0),
// however large. A number of more than 100 characters is read as a
// float64 (parsing it exactly takes time quadratic in its length), and
// one beyond a float64 counts as whole and infinite.
func integral(s string) (*big.Float, bool) {
	s = strings.TrimSpace(s)
	if len(s) > 100 {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !math.IsInf(f, 0) {
			return nil, false
		}
		return big.NewFloat(f), math.IsInf(f, 0) || f == math.Trunc(f)
	}
	f, _, err := big.ParseFloat(s, 10, 256, big.ToNearestEven)
	return f, err == nil && f.IsInt()
}

// wanted words what a schema's types take: "a string", "a whole number",
// "a string or a number".
func wanted(types []string) string {
	words := map[string]string{
		"string": "a string", "integer": "a whole number", "number": "a number", "boolean": "true or false",
		"array": "a list", "object": "an object",
	}
	var out []string
	for _, t := range types {
		if w := words[t]; w != "" {
			out = append(out, w)
		}
	}
	return strings.Join(out, " or ")
}
