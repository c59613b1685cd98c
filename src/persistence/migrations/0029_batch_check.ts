// The check that ends a group-committed batch written as one statement (persistence/instances/OneStatementCommit.ts): false
// raises (SQLSTATE FB001), so the statement — every row of the batch — is undone, and the batch is written again command by command.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE OR REPLACE FUNCTION flowcore_batch_check(ok boolean, problem text) RETURNS boolean
    LANGUAGE plpgsql AS $$
    BEGIN
      IF ok IS NOT TRUE THEN
        RAISE EXCEPTION 'batch not written: %', problem USING ERRCODE = 'FB001';
      END IF;
      RETURN true;
    END
    $$`)
})
