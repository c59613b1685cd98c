export { createWorker, type Job, JobError, type Worker, type WorkerOptions } from "./Worker.ts"
