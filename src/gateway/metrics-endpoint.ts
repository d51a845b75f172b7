/**
 * The answer to `GET /metrics`: `scrape`'s Prometheus text (format 0.0.4), or 500 with the
 * reason when collecting failed. The route sits behind the gateway's front door, so a token
 * set for `/mcp` is asked of a scraper too.
 */
export async function metricsResponse(scrape: () => Promise<string>): Promise<Response> {
  try {
    return new Response(await scrape(), {
      headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' },
    });
  } catch (error) {
    return new Response(
      `collecting metrics failed: ${error instanceof Error ? error.message : String(error)}\n`,
      {
        status: 500,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      },
    );
  }
}
