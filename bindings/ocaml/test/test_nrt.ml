(* The OCaml binding's test suite. [test_nrt.exe --workload ...] is the child process of the
   RSS test (Nrt_workload). *)

let () =
  Nrt_workload.main_hook ();
  Alcotest.run "nrt"
    [ ("declarations", Test_decls.tests);
      ("str", Test_str.tests);
      ("column", Test_column.tests);
      ("udf", Test_udf.tests);
      ("gc", Test_gc.tests);
      ("balance", Test_gc.final) ]
