package mcpserver

import (
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/transcripts"
)

// The resource URIs: parley://consensus/NAME (a consensus record, NAME as
// in consensus_show) and parley://debates/ID (a debate's transcript).
const (
	ConsensusURIPrefix = "parley://consensus/"
	DebateURIPrefix    = "parley://debates/"
	markdownMIME       = "text/markdown"
)

// ConsensusURI is the resource URI of the record called name.
func ConsensusURI(name string) string { return ConsensusURIPrefix + name }

// DebateURI is the resource URI of debate id's transcript.
func DebateURI(id string) string { return DebateURIPrefix + id }

// recordNameRE is what a record's name (its file name without .md) may be:
// a vault path segment.
var recordNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}$`) })

// ParseURI splits a parley resource URI into its kind ("consensus" or
// "debates") and its validated name. Anything else, including a name that
// could leave its folder, is an error.
func ParseURI(uri string) (kind, name string, err error) {
	switch {
	case strings.HasPrefix(uri, ConsensusURIPrefix):
		name = strings.TrimPrefix(uri, ConsensusURIPrefix)
		if !recordNameRE().MatchString(name) || strings.HasSuffix(name, ".md") || strings.Contains(name, "..") {
			return "", "", invalidf("%q is not a consensus record name", clip.Runes(name, 81))
		}
		return "consensus", name, nil
	case strings.HasPrefix(uri, DebateURIPrefix):
		name = strings.TrimPrefix(uri, DebateURIPrefix)
		if err := debate.ValidateID(name); err != nil {
			return "", "", invalidf("%w", err)
		}
		return "debates", name, nil
	}
	return "", "", invalidf("%q is not a parley resource (parley://consensus/NAME or parley://debates/ID)", clip.Runes(uri, 81))
}

// resourceSet is what resources/list last listed, to add and remove only
// what changed.
type resourceSet struct {
	mu  sync.Mutex
	cur map[string]mcp.Resource
}

func (s *Server) addResources() {
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		Name: "consensus-record", Title: "Consensus record", URITemplate: ConsensusURIPrefix + "{name}",
		Description: "A filed consensus record (Markdown with YAML frontmatter): verdict, final position, key rounds, evidence, rationale.",
		MIMEType:    markdownMIME,
	}, s.readResource)
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		Name: "debate-transcript", Title: "Debate transcript", URITemplate: DebateURIPrefix + "{id}",
		Description: "A debate's transcript rendered as Markdown: session, every turn with its evidence checks, the verdict.",
		MIMEType:    markdownMIME,
	}, s.readResource)
	// resources/list lists what is on disk now: the set is brought up to
	// date before the SDK answers. The SDK's own "Resource not found" (a
	// URI no resource or template matches) gets data that is JSON.
	s.mcp.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch method {
			case "resources/list":
				if err := s.syncResources(ctx); err != nil {
					s.log.Warn("listing resources failed", "op", "resources/list", "err", err)
				}
			case "resources/read":
				res, err := next(ctx, method, req)
				var je *jsonrpc.Error
				if r, ok := req.(*mcp.ReadResourceRequest); ok && errors.As(err, &je) && je.Code == jsonrpc.CodeInvalidParams && !stdjson.Valid(je.Data) {
					err = resourceNotFound(r.Params.URI)
				}
				return res, err
			}
			return next(ctx, method, req)
		}
	})
}

// resourceNotFound is the protocol's "Resource not found" error, with the
// URI as JSON data. The SDK's mcp.ResourceNotFoundError quotes the URI with
// Go's %q, which is not JSON for a control character or a rune it writes
// as \U…: its reply could not be encoded, and the session ended.
func resourceNotFound(uri string) error {
	data, _ := stdjson.Marshal(struct {
		URI string `json:"uri"`
	}{uri}) // a string always encodes
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Resource not found", Data: data}
}

// syncResources adds the records and debates on disk to the server's
// resources and removes those that are gone.
func (s *Server) syncResources(ctx context.Context) error {
	want := map[string]mcp.Resource{}
	recs, err := s.cfg.Consensus.Records(ctx, consensus.Filter{})
	if err != nil {
		return err
	}
	for _, r := range recs {
		uri := ConsensusURI(r.Name)
		want[uri] = mcp.Resource{
			URI: uri, Name: r.Name, Title: r.Topic, MIMEType: markdownMIME,
			Description: fmt.Sprintf("%s consensus record, %s → %s, %s, %s", r.Layer, r.Verdict, r.Action, r.Status, r.Date),
		}
	}
	list, err := s.cfg.Transcripts.List()
	if err != nil {
		return err
	}
	for _, d := range list {
		uri := DebateURI(d.DebateID)
		desc := fmt.Sprintf("%s debate, %s", d.Layer, d.State)
		if d.Verdict != "" {
			desc += ", " + string(d.Verdict)
		}
		want[uri] = mcp.Resource{URI: uri, Name: d.DebateID, Title: d.Topic, MIMEType: markdownMIME, Description: desc}
	}
	s.res.mu.Lock()
	defer s.res.mu.Unlock()
	var gone []string
	for uri := range s.res.cur {
		if _, ok := want[uri]; !ok {
			gone = append(gone, uri)
		}
	}
	if len(gone) > 0 {
		s.mcp.RemoveResources(gone...)
	}
	for uri, r := range want {
		if old, ok := s.res.cur[uri]; !ok || !sameResource(old, r) {
			s.mcp.AddResource(&r, s.readResource)
		}
	}
	s.res.cur = maps.Clone(want)
	return nil
}

// readResource reads a consensus record (its file: frontmatter and
// Markdown) or renders a debate's transcript.
func (s *Server) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	kind, name, err := ParseURI(uri)
	if err != nil {
		return nil, resourceNotFound(uri)
	}
	var text []byte
	switch kind {
	case "consensus":
		text, err = s.recordText(ctx, name)
		if errors.Is(err, consensus.ErrNoRecord) {
			return nil, resourceNotFound(uri)
		}
	default:
		text, _, err = s.transcript(ctx, name)
		if errors.Is(err, transcripts.ErrNotFound) {
			return nil, resourceNotFound(uri)
		}
	}
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: markdownMIME, Text: string(text)}}}, nil
}

// recordText is a record's file as it is in the vault; for an untrusted
// client, without its evidence checks (consensus.RedactEvidence).
func (s *Server) recordText(ctx context.Context, name string) ([]byte, error) {
	r, _, err := s.cfg.Consensus.Record(ctx, name)
	if err != nil {
		return nil, err
	}
	dir, err := s.cfg.Consensus.Vault().OpenDir(consensus.Folder, false)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	data, _, err := dir.ReadFile(r.Name + ".md")
	if err != nil || !s.cfg.Untrusted {
		return data, err
	}
	return consensus.RedactEvidence(data)
}

func sameResource(a, b mcp.Resource) bool {
	return a.URI == b.URI && a.Name == b.Name && a.Title == b.Title && a.Description == b.Description && a.MIMEType == b.MIMEType
}
