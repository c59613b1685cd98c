// The one-statement batch's second check (persistence/instances/OneStatementCommit.ts) raises with a SQLSTATE of its own, FB002:
// the batch's new message subscriptions have buffered messages to claim, so it is written as a transaction instead.
// The service tells the two failures apart by their code, not by their text.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE OR REPLACE FUNCTION flowcore_batch_check(ok boolean, problem text, code text)
    RETURNS boolean LANGUAGE plpgsql AS $$
    BEGIN
      IF ok IS NOT TRUE THEN
        RAISE EXCEPTION 'batch not written: %', problem USING ERRCODE = code;
      END IF;
      RETURN true;
    END
    $$`)
})
