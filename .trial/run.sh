#!/bin/bash
# usage: .trial/run.sh <mode> <name> ; reads the snippet from stdin, waits for its output
mode=$1; name=$2; dir=/work/main/.trial/cmds/$mode
cat > $dir/$name.tmp && mv $dir/$name.tmp $dir/$name.js
for i in $(seq 1 1200); do [ -f $dir/$name.out ] && { cat $dir/$name.out; exit 0; }; sleep 0.5; done
echo TIMEOUT
