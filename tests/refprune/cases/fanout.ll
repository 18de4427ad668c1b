; Fanout: every path from the incref reaches exactly one related decref.
; PASSES: normalize,null,fanout
; LIMIT: 4
; STATS: per_bb=0 diamond=0 fanout=3 fanout_raise=0 null=0 normalized=0
; EXPECT two_exits entry 0 0
; EXPECT two_exits left 0 0
; EXPECT two_exits right 0 0
; EXPECT nested entry 0 0
; EXPECT nested a 0 0
; EXPECT nested b 0 0
; EXPECT nested cc 0 0
; EXPECT nested a2 0 0
; EXPECT diamond_shape entry 0 0
; EXPECT diamond_shape merge 0 0
; EXPECT side_entry a 1 0
; EXPECT side_entry join 0 1
; EXPECT one_path_leaks entry 1 0
; EXPECT one_path_leaks left 0 1
; EXPECT unrelated_on_path entry 1 0
; EXPECT unrelated_on_path left 0 2
; EXPECT unrelated_on_path right 0 1
; EXPECT decref_then_loop_back entry 1 0
; EXPECT decref_then_loop_back d 0 1
; EXPECT raising_path_plain_fanout entry 1 0
; EXPECT raising_path_plain_fanout ok 0 1
; EXPECT over_limit entry 1 0
; EXPECT over_limit b5 0 1

declare void @NRT_incref(i8*)
declare void @NRT_decref(i8*)

; must go: one decref on each of two exit paths
define void @two_exits(i1 %c, i8* %p) {
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

; must go: three decrefs at different depths
define void @nested(i1 %c, i1 %d, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %a, label %b
a:
  call void @NRT_decref(i8* %p)
  ret void
b:
  br i1 %d, label %cc, label %a2
a2:
  call void @NRT_decref(i8* %p)
  ret void
cc:
  call void @NRT_decref(i8* %p)
  ret void
}

; must go: a diamond is also a fanout with one decref
define void @diamond_shape(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %l, label %r
l:
  br label %merge
r:
  br label %merge
merge:
  call void @NRT_decref(i8* %p)
  ret void
}

; must stay: the decref's block is entered from outside the region
define void @side_entry(i1 %c, i8* %p) {
entry:
  br i1 %c, label %a, label %other
a:
  call void @NRT_incref(i8* %p)
  br label %join
other:
  br label %join
join:
  call void @NRT_decref(i8* %p)
  ret void
}

; must stay: one path returns without a decref
define void @one_path_leaks(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %left, label %right
left:
  call void @NRT_decref(i8* %p)
  ret void
right:
  ret void
}

; must stay: an unrelated decref before the related one on a path
define void @unrelated_on_path(i1 %c, i8* %p, i8* %q) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %left, label %right
left:
  call void @NRT_decref(i8* %q)
  store i8 0, i8* %p
  call void @NRT_decref(i8* %p)
  ret void
right:
  call void @NRT_decref(i8* %p)
  ret void
}

; must stay: after the decref the path loops back into the region and decrefs again
define void @decref_then_loop_back(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br label %mid
mid:
  br label %d
d:
  call void @NRT_decref(i8* %p)
  br i1 %c, label %mid, label %exit
exit:
  ret void
}

; must stay without fanout-raise: one path ends in a raising block
define i32 @raising_path_plain_fanout(i1 %c, i8* %p, i32* %excinfo) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %ok, label %err
ok:
  call void @NRT_decref(i8* %p)
  ret i32 0
err:
  store i32 1, i32* %excinfo, !numba_exception_output !0
  ret i32 1
}

; must stay: more blocks between than the subgraph limit (4)
define void @over_limit(i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br label %b1
b1:
  br label %b2
b2:
  br label %b3
b3:
  br label %b4
b4:
  br label %b5
b5:
  call void @NRT_decref(i8* %p)
  ret void
}

!0 = !{i1 true}
