package openaitool_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/opentoolgen/opentoolgen/adapters/openaitool"
	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
)

// weather is the test's weather service: it fails for Atlantis.
type weather struct{}

func (weather) GetCurrentWeather(_ context.Context, a weathertool.GetCurrentWeatherArgs) (string, error) {
	if a.CurrentWeatherInfo.Location == "Atlantis" {
		return "", errors.New("no weather under the sea")
	}
	return "22 " + string(a.CurrentWeatherInfo.Format) + " in " + a.CurrentWeatherInfo.Location, nil
}

func (weather) GetNDayWeatherForecast(context.Context, weathertool.GetNDayWeatherForecastArgs) (string, error) {
	return "sunny", nil
}

// api stands in for OpenAI's HTTP API on loopback: it answers each request
// with the next canned body and keeps the requests' bodies.
type api struct {
	mu       sync.Mutex
	answers  []string
	requests []map[string]any
}

func (a *api) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var req map[string]any
	if err := json.Unmarshal(b, &req); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.requests = append(a.requests, req)
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, a.answers[0])
	a.answers = a.answers[1:]
}

func client(t *testing.T, a *api) openai.Client {
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	return openai.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
}

const chatToolCalls = `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[
 {"id":"call_1","type":"function","function":{"name":"get_current_weather","arguments":"{\"currentWeatherInfo\":{\"location\":\"Paris\",\"format\":\"celsius\"}}"}},
 {"id":"call_2","type":"function","function":{"name":"get_current_weather","arguments":"{\"currentWeatherInfo\":{\"location\":\"Atlantis\",\"format\":\"celsius\"}}"}},
 {"id":"call_3","type":"function","function":{"name":"get_current_weather","arguments":"{\"currentWeatherInfo\":{\"location\":\"Paris\",\"format\":\"kelvin\"}}"}},
 {"id":"call_4","type":"function","function":{"name":"nope","arguments":"{}"}}]}}]}`

const chatDone = `{"id":"chatcmpl-2","object":"chat.completion","created":2,"model":"gpt-test","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"done"}}]}`

// TestChatCompletions runs a Chat Completions tool loop through the SDK over
// HTTP: the strict declarations reach the request, the model's tool calls
// run, and their results and errors go back as tool messages.
func TestChatCompletions(t *testing.T) {
	ctx := context.Background()
	wt, err := weathertool.NewTool(weather{})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := openaitool.New(ctx, wt, openaitool.Strict())
	if err != nil {
		t.Fatal(err)
	}
	a := &api{answers: []string{chatToolCalls, chatDone}}
	c := client(t, a)
	params := openai.ChatCompletionNewParams{
		Model:    "gpt-test",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("weather?")},
		Tools:    ts.Chat(), // the one line that declares
	}
	completion, err := c.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	params.Messages = append(params.Messages, ts.RunChat(ctx, completion.Choices[0].Message)...) // the one line that runs
	completion, err = c.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if completion.Choices[0].Message.Content != "done" {
		t.Errorf("answer = %q", completion.Choices[0].Message.Content)
	}

	tools, _ := json.Marshal(a.requests[0]["tools"])
	if !strings.Contains(string(tools), `"name":"get_current_weather"`) || !strings.Contains(string(tools), `"strict":true`) || !strings.Contains(string(tools), `"additionalProperties":false`) {
		t.Errorf("declared tools = %s", tools)
	}
	msgs, _ := a.requests[1]["messages"].([]any)
	want := []struct{ id, content string }{
		{"call_1", `{"currentWeather":"22 celsius in Paris"}`},
		{"call_2", `{"error":{"code":500,"message":"no weather under the sea"}}`},
		{"call_3", `"code":-32602`},
		{"call_4", `"code":-32601`},
	}
	if len(msgs) != 2+len(want) {
		t.Fatalf("second request's messages = %v", msgs)
	}
	if m := msgs[1].(map[string]any); m["role"] != "assistant" || m["tool_calls"] == nil {
		t.Errorf("message 1 = %v, want the assistant's tool calls", m)
	}
	for i, w := range want {
		m := msgs[2+i].(map[string]any)
		content, _ := m["content"].(string)
		if m["role"] != "tool" || m["tool_call_id"] != w.id || !strings.Contains(content, w.content) {
			t.Errorf("message %d = %v, want a tool message for %s containing %s", 2+i, m, w.id, w.content)
		}
	}
}

const responsesCalls = `{"id":"resp_1","object":"response","created_at":1,"model":"gpt-test","status":"completed","output":[
 {"type":"function_call","id":"fc_1","call_id":"call_a","name":"get_n_day_weather_forecast","arguments":"{\"forecastWeatherInfo\":{\"location\":\"Oslo\",\"format\":\"celsius\",\"num_days\":2}}","status":"completed"},
 {"type":"function_call","id":"fc_2","call_id":"call_b","name":"get_current_weather","arguments":"{}","status":"completed"}]}`

const responsesDone = `{"id":"resp_2","object":"response","created_at":2,"model":"gpt-test","status":"completed","output":[{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"done","annotations":[]}]}]}`

// TestResponses runs a Responses API tool loop through the SDK over HTTP:
// flat function declarations, function_call_output items with the calls'
// IDs.
func TestResponses(t *testing.T) {
	ctx := context.Background()
	wt, err := weathertool.NewTool(weather{})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := openaitool.New(ctx, wt)
	if err != nil {
		t.Fatal(err)
	}
	a := &api{answers: []string{responsesCalls, responsesDone}}
	c := client(t, a)
	resp, err := c.Responses.New(ctx, responses.ResponseNewParams{
		Model: "gpt-test",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("weather?")},
		Tools: ts.Responses(),
	})
	if err != nil {
		t.Fatal(err)
	}
	resp, err = c.Responses.New(ctx, responses.ResponseNewParams{
		Model:              "gpt-test",
		PreviousResponseID: openai.String(resp.ID),
		Input:              responses.ResponseNewParamsInputUnion{OfInputItemList: ts.RunResponses(ctx, resp)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.OutputText() != "done" {
		t.Errorf("answer = %q", resp.OutputText())
	}
	tools, _ := a.requests[0]["tools"].([]any)
	if len(tools) != 2 {
		t.Fatalf("tools = %v", tools)
	}
	if d := tools[0].(map[string]any); d["type"] != "function" || d["name"] != "get_current_weather" || d["parameters"] == nil || d["strict"] != false {
		t.Errorf("declaration = %v", d)
	}
	items, _ := json.Marshal(a.requests[1]["input"])
	for _, w := range []string{
		`{"call_id":"call_a","output":"{\"forecastWeather\":\"sunny\"}","type":"function_call_output"}`,
		`"call_id":"call_b","output":"{\"error\":{\"code\":-32602`,
	} {
		if !strings.Contains(string(items), w) {
			t.Errorf("input items = %s, want %s", items, w)
		}
	}
}
