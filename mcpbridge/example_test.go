package mcpbridge_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// weather implements weathertool.Service.
type weather struct{}

func (weather) GetCurrentWeather(_ context.Context, a weathertool.GetCurrentWeatherArgs) (string, error) {
	return "Sunny in " + a.CurrentWeatherInfo.Location, nil
}

func (weather) GetNDayWeatherForecast(_ context.Context, a weathertool.GetNDayWeatherForecastArgs) (string, error) {
	return fmt.Sprintf("Sunny for %d days in %s", a.ForecastWeatherInfo.NumDays, a.ForecastWeatherInfo.Location), nil
}

// A generated tool served over MCP streamable HTTP, called with the SDK's client.
func Example() {
	ctx := context.Background()
	tool, err := weathertool.NewTool(weather{})
	if err != nil {
		log.Fatal(err)
	}
	h, err := mcpbridge.NewHTTPHandler(ctx, tool, nil, false) // true: stateless
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := httptest.NewServer(mux) // or http.ListenAndServe("127.0.0.1:8080", mux)
	defer srv.Close()

	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(t.Name)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{
		Name:      "get_current_weather",
		Arguments: map[string]any{"currentWeatherInfo": map[string]any{"location": "Paris", "format": "celsius"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{
		Name:      "get_current_weather",
		Arguments: map[string]any{"currentWeatherInfo": map[string]any{"location": "Paris", "format": "kelvin"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// get_current_weather
	// get_n_day_weather_forecast
	// {"currentWeather":"Sunny in Paris"}
	// true invalid params: /currentWeatherInfo/format: got "kelvin", want one of "celsius", "fahrenheit"
}

// A generated tool served over MCP stdio, for a client that starts the command
// (Claude Desktop, an IDE, mcp.CommandTransport).
func ExampleServeStdio() {
	tool, err := weathertool.NewTool(weather{})
	if err != nil {
		log.Fatal(err)
	}
	if err := mcpbridge.ServeStdio(context.Background(), tool, &mcp.Implementation{Name: "weather", Version: "1.0.0"}); err != nil {
		log.Fatal(err)
	}
}

// One generated typed client over OpenTool HTTP, in the same process and over
// MCP: NewClient takes a runtime.Caller.
func Example_typedClient() {
	ctx := context.Background()
	tool, err := weathertool.NewTool(weather{})
	if err != nil {
		log.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool)) // an OpenTool server
	defer srv.Close()
	h, err := mcpbridge.NewHTTPHandler(ctx, tool, nil, false) // an MCP server with the same tools
	if err != nil {
		log.Fatal(err)
	}
	mcpSrv := httptest.NewServer(h)
	defer mcpSrv.Close()

	// OpenTool HTTP
	overHTTP := weathertool.NewClient(runtime.NewClient(srv.URL + "/opentool"))
	// the tool in the same process, as it answers over HTTP
	local := weathertool.NewClient(runtime.Local(tool))
	// an MCP server (or CommandTool(ctx, cmd), or NewTool(ctx, session))
	mcpTool, err := mcpbridge.HTTPTool(ctx, mcpSrv.URL, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer mcpTool.Close()
	overMCP := weathertool.NewClient(runtime.Local(mcpTool))

	for _, c := range []*weathertool.Client{overHTTP, local, overMCP} {
		now, err := c.GetCurrentWeather(ctx, weathertool.GetCurrentWeatherArgs{
			CurrentWeatherInfo: weathertool.CurrentWeatherInfo{Location: "Paris", Format: weathertool.CurrentWeatherInfoFormatCelsius},
		})
		fmt.Println(now, err)
	}
	// Output:
	// Sunny in Paris <nil>
	// Sunny in Paris <nil>
	// Sunny in Paris <nil>
}
