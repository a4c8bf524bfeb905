import NIOCore
import NIOPosix

/// Runs the server's tasks on NIO's event loops as their preferred task executor.
///
/// `NIOSingletons`' global executor (installed by `Guesswork.main`) already runs tasks on the
/// event loops, but it runs each job as if isolated to its event loop. A task resumed that way
/// (a request arrived, a write was committed) and then calling any `async` function has to
/// leave that "isolation" for the generic executor: Swift's runtime cannot do that in place,
/// so it queues the task on the loop a second time. As the task's preferred executor, this
/// one runs jobs with no isolation, and calls between `async` functions stay on the thread.
final class EventLoopTaskExecutor: TaskExecutor {
  private let group: MultiThreadedEventLoopGroup

  init(group: MultiThreadedEventLoopGroup) {
    self.group = group
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    // The loop this runs on, if it is one of the group's (no hop), or else the next.
    group.any().execute {
      job.runSynchronously(on: self.asUnownedTaskExecutor())
    }
  }
}
