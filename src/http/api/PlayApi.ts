import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BusinessErrorHttp, ConflictHttp, NotFoundHttp, ValidationErrorHttp } from "../../schema/ApiErrors.ts"
import { Created, Ok } from "../../schema/Envelope.ts"
import { PlaySessionView, PlayStepRequest, StartPlaySession } from "../../schema/Play.ts"
import { PlaySessionId } from "../../schema/ResourceIds.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"
import { writesOn } from "./WritesOn.ts"

// SERVICE.md: Play mode is for ADMIN and PROCESS_OWNER (reading a session too). Every call answers the session's view
// and may be refused alike: a session gone or a draft's unknown reference (404), a step it cannot take (409), an
// invalid draft or step (400).
const PlayErrors = [NotFoundHttp, ConflictHttp, ValidationErrorHttp, BusinessErrorHttp]
const sessionStep = writesOn(PlaySessionId, PlaySessionView, PlayErrors, Requires.adminOrProcessOwner)

export class PlayApi extends HttpApiGroup.make("play")
  .add(
    HttpApiEndpoint.post("start", "/sessions", {
      payload: StartPlaySession,
      success: Created(PlaySessionView, "Session started"),
      error: PlayErrors
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(OpenApi.annotations({
      summary:
        "Start a Play session from BPMN XML or a JSON graph without deploying: it runs in memory to its first waits",
      description:
        "Nothing is saved and no instances, jobs or tasks are created; the session is removed after 30 minutes without " +
        "activity. An invalid draft answers 400 listing every problem, as a deployment would."
    })),
    sessionStep(
      "step",
      "/sessions/:id/step",
      "Stepped",
      "Advance one node: answer a waiting token (job or task completes with variables or the session's mock, timer fires, " +
        "message or signal arrives) or trigger an armed event; optionally choose the flow a gateway takes. The process then runs to its next waits.",
      PlayStepRequest
    ),
    HttpApiEndpoint.get("get", "/sessions/:id", {
      params: { id: PlaySessionId },
      success: Ok(PlaySessionView),
      error: PlayErrors
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({
          summary: "The session's tokens, armed events, variables and incidents, without advancing"
        })
      )
  )
  .pipe(authenticatedGroup("/api/v1/play", "Play"))
{}
