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

// addTool registers a tool as mcp.AddTool does, and keeps its input schema
// (derived from In unless the tool sets one) for checkArguments.
func addTool[In, Out any](s *Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	if t.InputSchema == nil {
		sc, err := jsonschema.For[In](nil)
		if err != nil {
			panic(err) // a programming error in In
		}
		t.InputSchema = sc
	}
	s.inputs[t.Name] = t.InputSchema.(*jsonschema.Schema)
	mcp.AddTool(s.mcp, t, h)
}

// checkArguments refuses, before the SDK reads them, the arguments of a
// tools/call that the SDK would refuse in its own words (Go's, or its
// schema validator's: "overflows into Go struct field …", "<invalid
// reflect.Value> has type \"null\""): a null, a value of the wrong kind, a
// number that is not a whole number or out of the range of one, a missing
// required argument, an unknown one. The refusal is a tool error
// (isError), as the SDK's was, that names the argument and what it takes.
// Everything else goes on to the SDK and the tool.
func (s *Server) checkArguments(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.CallToolRequest); ok && method == "tools/call" && r.Params != nil {
			if sc := s.inputs[r.Params.Name]; sc != nil {
				if err := argumentsError(r.Params.Name, sc, r.Params.Arguments); err != nil {
					var res mcp.CallToolResult
					res.SetError(err)
					return &res, nil
				}
			}
		}
		return next(ctx, method, req)
	}
}

// argumentsError is what is wrong with a tool's arguments against its
// input schema, in parley's words; nil when nothing this checks is.
// Arguments left out, or null, are no arguments; JSON that does not parse
// is left to the SDK.
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
