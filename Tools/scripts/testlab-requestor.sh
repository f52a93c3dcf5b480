#!/bin/sh
# A --requestor-exec command for the TestLab (or any server with the same contract): posts the request JSON from
# standard input to POST {server}/3ds/authenticate and prints the answer.
#
#   echo 4000000000002000 | threeds pay \
#     --requestor-exec "sh Tools/scripts/testlab-requestor.sh https://127.0.0.1:8443 testlab-pki/tls-root.pem" \
#     --ds-id F055545342 --ds-cert testlab-pki/ds-encryption-rsa.pem --ds-root testlab-pki/ds-root.pem \
#     --tls-root testlab-pki/tls-root.pem --card-file - --amount 1999 --currency 978
#
# (from the repository's root; the command reaches the 3DS Server, and threeds itself then reaches the ACS, which
# needs the TestLab's TLS root too: --tls-root).
#
# For a real 3DS Server, map the fields to its API here (jq, Python, …) and print its answer in ARes field names.
set -eu
server="$1"
ca="$2"
exec curl --silent --show-error --fail-with-body --max-time 30 --cacert "$ca" \
    -H 'Content-Type: application/json; charset=UTF-8' --data-binary @- "$server/3ds/authenticate"
