; Diamond pairs: incref dominates decref, decref post-dominates incref.
; PASSES: normalize,null,diamond
; STATS: per_bb=0 diamond=3 fanout=0 fanout_raise=0 null=0 normalized=0
; EXPECT diamond entry 0 0
; EXPECT diamond merge 0 0
; EXPECT loop_between entry 0 0
; EXPECT loop_between out 0 0
; EXPECT decref_one_branch entry 1 0
; EXPECT decref_one_branch left 0 1
; EXPECT unrelated_between entry 1 0
; EXPECT unrelated_between left 0 1
; EXPECT unrelated_between merge 0 1
; EXPECT call_between entry 0 0
; EXPECT call_between merge 0 0
; EXPECT decref_in_loop entry 1 0
; EXPECT decref_in_loop loop 0 1
; EXPECT incref_in_loop loop 1 0
; EXPECT incref_in_loop exit 0 1
; EXPECT back_edge_to_head head 1 0
; EXPECT back_edge_to_head exit 0 1
; EXPECT not_postdominating entry 1 0
; EXPECT not_postdominating left 0 1
; EXPECT not_postdominating right 0 1

declare void @NRT_incref(i8*)
declare void @NRT_decref(i8*)
declare void @use(i8*)

; must go
define void @diamond(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %left, label %right
left:
  store i8 1, i8* %p
  br label %merge
right:
  br label %merge
merge:
  call void @NRT_decref(i8* %p)
  ret void
}

; must go: a loop strictly between that contains neither operation
define void @loop_between(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br label %loop
loop:
  br i1 %c, label %loop, label %out
out:
  call void @NRT_decref(i8* %p)
  ret void
}

; must stay: decref on only one branch
define void @decref_one_branch(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %left, label %right
left:
  call void @NRT_decref(i8* %p)
  br label %merge
right:
  br label %merge
merge:
  ret void
}

; must stay: an unrelated decref on a path between
define void @unrelated_between(i1 %c, i8* %p, i8* %q) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %left, label %right
left:
  call void @NRT_decref(i8* %q)
  br label %merge
right:
  br label %merge
merge:
  call void @NRT_decref(i8* %p)
  ret void
}

; must go: a call on a path between (callees borrow their arguments)
define void @call_between(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %left, label %right
left:
  call void @use(i8* %p)
  br label %merge
right:
  br label %merge
merge:
  call void @NRT_decref(i8* %p)
  ret void
}

; must stay: the decref is inside a loop, the incref is not
define void @decref_in_loop(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br label %loop
loop:
  call void @NRT_decref(i8* %p)
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; must stay: the incref is inside a loop, the decref is not
define void @incref_in_loop(i1 %c, i8* %p) {
entry:
  br label %loop
loop:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %loop, label %exit
exit:
  call void @NRT_decref(i8* %p)
  ret void
}

; must stay: a back edge to the incref's block
define void @back_edge_to_head(i1 %c, i8* %p) {
entry:
  br label %head
head:
  call void @NRT_incref(i8* %p)
  br label %body
body:
  br i1 %c, label %head, label %exit
exit:
  call void @NRT_decref(i8* %p)
  ret void
}

; stays for diamond (no single post-dominating decref); fanout would take it
define void @not_postdominating(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %left, label %right
left:
  call void @NRT_decref(i8* %p)
  ret void
right:
  call void @NRT_decref(i8* %p)
  ret void
}
