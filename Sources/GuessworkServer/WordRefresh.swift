import GuessworkPlay
import ServiceLifecycle

/// Refreshes the categories from Datamuse in the background: once shortly after start, then
/// every hour (a category is only asked once a day). Stops with the server.
struct WordRefreshService: Service {
  let bank: WordBank

  func run() async throws {
    // A service that returns would stop the whole server: when off, wait for the end.
    guard bank.datamuse.enabled else {
      try? await gracefulShutdown()
      return
    }
    await cancelWhenGracefulShutdown {
      while !Task.isCancelled {
        await bank.refreshDue()
        try? await Task.sleep(for: .seconds(3600))
      }
    }
  }
}
