#!/usr/bin/env python3
"""Independent JOSE peer for the ThreeDS2JOSE interoperability check.

The peer uses jwcrypto (JOSE) and pyca/cryptography (keys, X.509, KDF, AES, HMAC) — an implementation that shares
no code with the Swift one. It runs both directions:

1. Python -> Swift: it generates the keys and a three-certificate PKI, produces JWEs for every alg/enc pair and
   PS256/ES256 JWSs with an x5c chain, plus tampered and refused variants; the Swift tool decrypts and verifies
   them, and every outcome must match (valid ones decrypt to the exact plaintext, tampered ones are rejected with
   the expected error code).
2. Swift -> Python: the Swift tool encrypts and signs with every combination to the peer's keys; the peer decrypts
   and verifies each (x5c chain validated with cryptography's X.509 verifier), and checks that its own tampering of
   each Swift token is detected.
3. Challenge flows (flow_peer.py): the peer plays the ACS, encrypting 2.3.1 and 2.2.0 CRes for every new flow; the
   Swift tool answers them as the SDK does, and the peer decrypts and checks every CReq field against the tables,
   and every CReq's message extension against the Bridging rules (2.2.0).
4. The Split-SDK Server's signed content (split_peer.py): jwcrypto tokens verified by Swift, a Swift token verified
   by jwcrypto.

Usage: jose_peer.py PATH-TO-jose-interop
Prints "N passed, N failed" and exits non-zero on any failure.
"""

import base64
import datetime
import hashlib
import hmac
import json
import os
import subprocess
import sys
import tempfile

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.concatkdf import ConcatKDFHash
from cryptography.x509.oid import NameOID
from cryptography.x509.verification import PolicyBuilder, Store
from jwcrypto import jwe, jwk, jws
from jwcrypto.common import json_encode

import flow_peer
import split_peer
from peer_common import b64u, unb64u

DS_ID = "A000000004"
ENCS = ["A128CBC-HS256", "A128GCM"]


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok: bool, what: str):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}")


# ---------------------------------------------------------------------------------------------------------------
# Key material and PKI


def pem_private(key) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


def pem_cert(cert) -> str:
    return cert.public_bytes(serialization.Encoding.PEM).decode()


def make_cert(subject_cn, subject_key, issuer_cert, issuer_key, ca: bool, path_len=None, days=365):
    now = datetime.datetime.now(datetime.timezone.utc)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject_cn)])
    issuer = issuer_cert.subject if issuer_cert is not None else subject
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(subject_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=path_len), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True, content_commitment=False, key_encipherment=False, data_encipherment=False,
                key_agreement=False, key_cert_sign=ca, crl_sign=ca, encipher_only=False, decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(subject_key.public_key()), critical=False)
    )
    if not ca:
        # cryptography's X.509 client verifier requires a subjectAltName on the leaf.
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName("acs.test")]), critical=False)
    if issuer_cert is not None:
        builder = builder.add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False
        )
    return builder.sign(issuer_key, hashes.SHA256())


def make_material():
    root_key = ec.generate_private_key(ec.SECP256R1())
    root = make_cert("Peer DS Root", root_key, None, root_key, ca=True)
    inter_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    inter = make_cert("Peer DS Intermediate", inter_key, root, root_key, ca=True, path_len=0)
    rsa_signer_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    rsa_signer = make_cert("Peer ACS RSA", rsa_signer_key, inter, inter_key, ca=False)
    ec_signer_key = ec.generate_private_key(ec.SECP256R1())
    ec_signer = make_cert("Peer ACS EC", ec_signer_key, inter, inter_key, ca=False)
    other_root_key = ec.generate_private_key(ec.SECP256R1())
    other_root = make_cert("Unknown Root", other_root_key, None, other_root_key, ca=True)
    other_signer_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    other_signer = make_cert("Unknown ACS", other_signer_key, other_root, other_root_key, ca=False)
    ds_rsa = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ds_ec = ec.generate_private_key(ec.SECP256R1())
    direct_cbc, direct_gcm = os.urandom(32), os.urandom(16)
    return {
        "keys": {
            "root": root, "inter": inter, "rsa_signer": rsa_signer, "rsa_signer_key": rsa_signer_key,
            "ec_signer": ec_signer, "ec_signer_key": ec_signer_key, "other_root": other_root,
            "other_signer": other_signer, "other_signer_key": other_signer_key, "ds_rsa": ds_rsa, "ds_ec": ds_ec,
            "cbc": direct_cbc, "gcm": direct_gcm,
        },
        "json": {
            "ds_id": DS_ID,
            "direct_cbc_key_hex": direct_cbc.hex(),
            "direct_gcm_key_hex": direct_gcm.hex(),
            "root_pem": pem_cert(root),
            "intermediate_pem": pem_cert(inter),
            "rsa_signer_pem": pem_cert(rsa_signer),
            "rsa_signer_private_pem": pem_private(rsa_signer_key),
            "ec_signer_pem": pem_cert(ec_signer),
            "ec_signer_private_pem": pem_private(ec_signer_key),
            "ds_rsa_private_pem": pem_private(ds_rsa),
            "ds_rsa_public_pem": ds_rsa.public_key()
            .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
            .decode(),
            "ds_ec_private_pem": pem_private(ds_ec),
        },
    }


# ---------------------------------------------------------------------------------------------------------------
# The EMVCo ECDH-ES profile, by hand (no stock library implements it)


def emvco_kdf(z: bytes, party_v: str, key_len: int) -> bytes:
    other_info = (
        (0).to_bytes(4, "big") + (0).to_bytes(4, "big")
        + len(party_v.encode()).to_bytes(4, "big") + party_v.encode()
        + (key_len * 8).to_bytes(4, "big")
    )
    return ConcatKDFHash(algorithm=hashes.SHA256(), length=key_len, otherinfo=other_info).derive(z)


def content_encrypt(enc: str, key: bytes, iv: bytes, aad: bytes, plaintext: bytes):
    if enc == "A128GCM":
        sealed = AESGCM(key).encrypt(iv, plaintext, aad)
        return sealed[:-16], sealed[-16:]
    mac_key, enc_key = key[:16], key[16:]
    pad = 16 - len(plaintext) % 16
    encryptor = Cipher(algorithms.AES(enc_key), modes.CBC(iv)).encryptor()
    ciphertext = encryptor.update(plaintext + bytes([pad]) * pad) + encryptor.finalize()
    al = (len(aad) * 8).to_bytes(8, "big")
    tag = hmac.new(mac_key, aad + iv + ciphertext + al, hashlib.sha256).digest()[:16]
    return ciphertext, tag


def content_decrypt(enc: str, key: bytes, iv: bytes, aad: bytes, ciphertext: bytes, tag: bytes) -> bytes:
    if enc == "A128GCM":
        return AESGCM(key).decrypt(iv, ciphertext + tag, aad)
    mac_key, enc_key = key[:16], key[16:]
    al = (len(aad) * 8).to_bytes(8, "big")
    expected = hmac.new(mac_key, aad + iv + ciphertext + al, hashlib.sha256).digest()[:16]
    if not hmac.compare_digest(expected, tag):
        raise ValueError("tag mismatch")
    decryptor = Cipher(algorithms.AES(enc_key), modes.CBC(iv)).decryptor()
    padded = decryptor.update(ciphertext) + decryptor.finalize()
    pad = padded[-1]
    if pad < 1 or pad > 16 or padded[-pad:] != bytes([pad]) * pad:
        raise ValueError("bad padding")
    return padded[:-pad]


def key_len(enc: str) -> int:
    return 16 if enc == "A128GCM" else 32


def emvco_ecdh_encrypt(ds_public, enc: str, plaintext: bytes, kid=None) -> str:
    eph = ec.generate_private_key(ec.SECP256R1())
    numbers = eph.public_key().public_numbers()
    epk = {"kty": "EC", "crv": "P-256", "x": b64u(numbers.x.to_bytes(32, "big")), "y": b64u(numbers.y.to_bytes(32, "big"))}
    header = {"alg": "ECDH-ES", "enc": enc, "epk": epk}
    if kid:
        header["kid"] = kid
    z = eph.exchange(ec.ECDH(), ds_public)
    cek = emvco_kdf(z, DS_ID, key_len(enc))
    encoded = b64u(json.dumps(header, separators=(",", ":")).encode())
    iv = os.urandom(12 if enc == "A128GCM" else 16)
    ciphertext, tag = content_encrypt(enc, cek, iv, encoded.encode(), plaintext)
    return ".".join([encoded, "", b64u(iv), b64u(ciphertext), b64u(tag)])


def emvco_ecdh_decrypt(ds_private, compact: str, party_v: str) -> bytes:
    parts = compact.split(".")
    header = json.loads(unb64u(parts[0]))
    if header.get("alg") != "ECDH-ES" or parts[1] != "":
        raise ValueError("not ECDH-ES direct")
    epk = header["epk"]
    public = ec.EllipticCurvePublicNumbers(
        int.from_bytes(unb64u(epk["x"]), "big"), int.from_bytes(unb64u(epk["y"]), "big"), ec.SECP256R1()
    ).public_key()
    z = ds_private.exchange(ec.ECDH(), public)
    cek = emvco_kdf(z, party_v, key_len(header["enc"]))
    return content_decrypt(header["enc"], cek, unb64u(parts[2]), parts[0].encode(), unb64u(parts[3]), unb64u(parts[4]))


# ---------------------------------------------------------------------------------------------------------------
# Python -> Swift


def jwk_private(key) -> jwk.JWK:
    return jwk.JWK.from_pem(pem_private(key).encode())


def jwcrypto_jwe(plaintext: bytes, key: jwk.JWK, header: dict) -> str:
    token = jwe.JWE(plaintext, protected=json_encode(header))
    token.add_recipient(key)
    return token.serialize(compact=True)


def jwcrypto_jws(payload: bytes, key, alg: str, chain) -> str:
    x5c = [base64.b64encode(c.public_bytes(serialization.Encoding.DER)).decode() for c in chain]
    token = jws.JWS(payload)
    token.add_signature(jwk_private(key), alg=alg, protected=json_encode({"alg": alg, "x5c": x5c}))
    return token.serialize(compact=True)


def flip(compact: str, part: int, index: int = 0) -> str:
    parts = compact.split(".")
    data = bytearray(unb64u(parts[part]))
    data[index] ^= 1
    parts[part] = b64u(bytes(data))
    return ".".join(parts)


def python_cases(m):
    k = m["keys"]
    plaintext = json.dumps({"DV": "1.7", "DD": {"C001": "Python", "C005": "fr-FR"}, "DPNA": {}, "SW": ["SW04"]}).encode()
    cases = []

    def add(case_id, compact, alg, expect, code=None, **extra):
        case = {"id": case_id, "type": "jwe", "compact": compact, "alg": alg, "expect": expect,
                "plaintext_b64u": b64u(plaintext)}
        if code:
            case["expect_code"] = code
        case.update(extra)
        cases.append(case)

    for enc in ENCS:
        direct = jwk.JWK(kty="oct", k=b64u(k["cbc"] if enc == "A128CBC-HS256" else k["gcm"]))
        kid = "peer-" + enc
        token = jwcrypto_jwe(plaintext, direct, {"alg": "dir", "enc": enc, "kid": kid})
        add(f"py-dir-{enc}", token, "dir", "ok", kid=kid, accept_enc=[enc])
        add(f"py-dir-{enc}-flipped-tag", flip(token, 4), "dir", "reject", "authenticationFailed", kid=kid)
        add(f"py-dir-{enc}-flipped-ciphertext", flip(token, 3), "dir", "reject", "authenticationFailed")
        add(f"py-dir-{enc}-wrong-kid", token, "dir", "reject", "unexpectedKeyID", kid="someone-else")
        other = [e for e in ENCS if e != enc][0]
        add(f"py-dir-{enc}-unexpected-enc", token, "dir", "reject", "unexpectedEncryption", accept_enc=[other])
        add(f"py-dir-{enc}-padded", token + "=", "dir", "reject", "malformedBase64")
        add(f"py-dir-{enc}-missing-part", token.rsplit(".", 1)[0], "dir", "reject", "malformedCompactSerialization")
        add(f"py-dir-{enc}-extra-part", token + ".AAAA", "dir", "reject", "malformedCompactSerialization")

        rsa_key = jwk.JWK.from_pem(
            k["ds_rsa"].public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        )
        token = jwcrypto_jwe(plaintext, rsa_key, {"alg": "RSA-OAEP-256", "enc": enc, "kid": "ds-rsa"})
        add(f"py-rsa-{enc}", token, "RSA-OAEP-256", "ok", kid="ds-rsa")
        add(f"py-rsa-{enc}-flipped-tag", flip(token, 4, -1), "RSA-OAEP-256", "reject", "authenticationFailed")
        add(f"py-rsa-{enc}-flipped-key", flip(token, 1, 7), "RSA-OAEP-256", "reject", "authenticationFailed")

        ec_public = jwk.JWK.from_pem(
            k["ds_ec"].public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        )
        token = jwcrypto_jwe(plaintext, ec_public, {"alg": "ECDH-ES", "enc": enc, "apu": b64u(b"py"), "apv": b64u(b"swift")})
        add(f"py-ecdh-standard-{enc}", token, "ECDH-ES", "ok", profile="standard")
        add(f"py-ecdh-standard-{enc}-flipped-tag", flip(token, 4), "ECDH-ES", "reject", "authenticationFailed", profile="standard")

        token = emvco_ecdh_encrypt(k["ds_ec"].public_key(), enc, plaintext, kid="ds-ec")
        add(f"py-ecdh-emvco-{enc}", token, "ECDH-ES", "ok", profile="emvco", kid="ds-ec")
        add(f"py-ecdh-emvco-{enc}-flipped-tag", flip(token, 4), "ECDH-ES", "reject", "authenticationFailed", profile="emvco")
        add(f"py-ecdh-emvco-{enc}-as-standard", token, "ECDH-ES", "reject", "authenticationFailed", profile="standard")

    # A128GCM with the IV lengths ACSs send: 12 bytes (RFC 7518) and 16 bytes (the EMVCo SDK Technical Guide's
    # channel sample); any other length is refused. Built by hand: jwcrypto only makes 12-byte IVs.
    for iv_len, expect, code in [(12, "ok", None), (16, "ok", None), (8, "reject", "invalidIV")]:
        header = b64u(json.dumps({"alg": "dir", "enc": "A128GCM", "kid": "peer-gcm-iv"}).encode())
        iv = os.urandom(iv_len)
        ciphertext, tag = content_encrypt("A128GCM", k["gcm"], iv, header.encode(), plaintext)
        token = ".".join([header, "", b64u(iv), b64u(ciphertext), b64u(tag)])
        add(f"py-dir-A128GCM-iv{iv_len}", token, "dir", expect, code, kid="peer-gcm-iv", accept_enc=["A128GCM"])
        if expect == "ok":
            add(f"py-dir-A128GCM-iv{iv_len}-flipped-tag", flip(token, 4), "dir", "reject", "authenticationFailed",
                kid="peer-gcm-iv", accept_enc=["A128GCM"])

    payload = json.dumps({"acsURL": "https://127.0.0.1/acs", "acsEphemPubKey": {"kty": "EC"}}).encode()
    chain_rsa = [k["rsa_signer"], k["inter"], k["root"]]
    chain_ec = [k["ec_signer"], k["inter"], k["root"]]

    def add_jws(case_id, compact, expect, code=None):
        case = {"id": case_id, "type": "jws", "compact": compact, "expect": expect, "plaintext_b64u": b64u(payload)}
        if code:
            case["expect_code"] = code
        cases.append(case)

    ps = jwcrypto_jws(payload, k["rsa_signer_key"], "PS256", chain_rsa)
    es = jwcrypto_jws(payload, k["ec_signer_key"], "ES256", chain_ec)
    add_jws("py-jws-PS256", ps, "ok")
    add_jws("py-jws-ES256", es, "ok")
    add_jws("py-jws-PS256-flipped-signature", flip(ps, 2, 10), "reject", "invalidSignature")
    add_jws("py-jws-ES256-flipped-payload", flip(es, 1), "reject", "invalidSignature")
    add_jws("py-jws-PS256-other-key", jwcrypto_jws(payload, k["other_signer_key"], "PS256", chain_rsa), "reject", "invalidSignature")
    add_jws(
        "py-jws-unknown-root",
        jwcrypto_jws(payload, k["other_signer_key"], "PS256", [k["other_signer"], k["other_root"]]),
        "reject", "untrustedCertificateChain",
    )
    header = json.loads(unb64u(es.split(".")[0]))
    header["alg"] = "none"
    add_jws("py-jws-alg-none", b64u(json.dumps(header).encode()) + "." + es.split(".")[1] + ".", "reject", "unsupportedAlgorithm")
    header["alg"] = "HS256"
    hs_input = b64u(json.dumps(header).encode()) + "." + es.split(".")[1]
    add_jws("py-jws-alg-HS256", hs_input + "." + b64u(hmac.new(b"k", hs_input.encode(), hashlib.sha256).digest()), "reject", "unsupportedAlgorithm")
    add_jws("py-jws-padded", es + "=", "reject", "malformedBase64")
    return plaintext, cases


# ---------------------------------------------------------------------------------------------------------------
# Swift -> Python


def verify_x5c_chain(x5c, root) -> None:
    certs = [x509.load_der_x509_certificate(base64.b64decode(c, validate=True)) for c in x5c]
    verifier = PolicyBuilder().store(Store([root])).build_client_verifier()
    verifier.verify(certs[0], certs[1:])


def check_swift_cases(m, swift_cases, tally: Tally):
    k = m["keys"]
    for case in swift_cases:
        cid, compact = case["id"], case["compact"]
        if case["type"] == "jwe":
            expected = unb64u(case["plaintext_b64u"])
            alg, enc = case["alg"], case["enc"]
            header = json.loads(unb64u(compact.split(".")[0]))
            tally.check(header.get("alg") == alg and header.get("enc") == enc and header.get("kid") == case["kid"],
                        f"{cid}: header {header}")
            if alg == "ECDH-ES" and case.get("profile") == "emvco":
                decrypt = lambda token: emvco_ecdh_decrypt(k["ds_ec"], token, DS_ID)
                tally.check(set(header["epk"]) == {"kty", "crv", "x", "y"}, f"{cid}: epk members {header['epk']}")
            else:
                if alg == "dir":
                    key = jwk.JWK(kty="oct", k=b64u(k["cbc"] if enc == "A128CBC-HS256" else k["gcm"]))
                elif alg == "RSA-OAEP-256":
                    key = jwk_private(k["ds_rsa"])
                else:
                    key = jwk_private(k["ds_ec"])

                def decrypt(token, key=key):
                    obj = jwe.JWE()
                    obj.deserialize(token, key=key)
                    return obj.payload

            try:
                tally.check(decrypt(compact) == expected, f"{cid}: plaintext differs")
            except Exception as error:  # noqa: BLE001 - any failure is a failed check
                tally.check(False, f"{cid}: peer could not decrypt: {error!r}")
            for part, index in [(4, 0), (3, 0), (2, 0)]:
                try:
                    decrypt(flip(compact, part, index))
                    tally.check(False, f"{cid}: tampered part {part} was accepted by the peer")
                except Exception:  # noqa: BLE001 - rejection is the expected outcome
                    tally.check(True, "")
        else:
            header = json.loads(unb64u(compact.split(".")[0]))
            tally.check(header.get("alg") == case["alg"] and len(header.get("x5c", [])) == 3, f"{cid}: header")
            try:
                verify_x5c_chain(header["x5c"], k["root"])
                tally.check(True, "")
            except Exception as error:  # noqa: BLE001
                tally.check(False, f"{cid}: x5c chain does not validate at the peer: {error!r}")
            leaf = x509.load_der_x509_certificate(base64.b64decode(header["x5c"][0]))
            key = jwk.JWK.from_pem(leaf.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
            for token, should_pass in [(compact, True), (flip(compact, 2, 3), False), (flip(compact, 1), False)]:
                obj = jws.JWS()
                try:
                    obj.deserialize(token)
                    obj.verify(key, alg=case["alg"])
                    ok = obj.payload == unb64u(case["payload_b64u"])
                except Exception:  # noqa: BLE001
                    ok = False
                tally.check(ok == should_pass, f"{cid}: peer verification gave {ok}, expected {should_pass}")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    tool = sys.argv[1]
    tally = Tally()
    material = make_material()
    with tempfile.TemporaryDirectory() as work:
        material_path = os.path.join(work, "material.json")
        with open(material_path, "w") as handle:
            json.dump(material["json"], handle)

        _, cases = python_cases(material)
        cases_path, results_path = os.path.join(work, "cases.json"), os.path.join(work, "results.json")
        with open(cases_path, "w") as handle:
            json.dump(cases, handle)
        subprocess.run([tool, "consume", material_path, cases_path, results_path], check=True)
        with open(results_path) as handle:
            results = {r["id"]: r for r in json.load(handle)}
        for case in cases:
            result = results.get(case["id"])
            if result is None:
                tally.check(False, f"{case['id']}: no result from Swift")
            elif case["expect"] == "ok":
                tally.check(
                    result["outcome"] == "ok" and result["output_b64u"] == case["plaintext_b64u"],
                    f"{case['id']}: Swift gave {result}",
                )
            else:
                tally.check(
                    result["outcome"] == "rejected" and result["code"] == case["expect_code"],
                    f"{case['id']}: expected rejection {case['expect_code']}, Swift gave {result}",
                )
        print(f"python -> swift: {len(cases)} cases checked")

        swift_path = os.path.join(work, "swift.json")
        subprocess.run([tool, "produce", material_path, swift_path], check=True)
        with open(swift_path) as handle:
            swift_cases = json.load(handle)
        combos = {(c.get("alg"), c.get("profile"), c.get("enc")) for c in swift_cases if c["type"] == "jwe"}
        tally.check(len(combos) == 8, f"Swift produced {len(combos)} alg/enc combinations, expected 8")
        tally.check({c["alg"] for c in swift_cases if c["type"] == "jws"} == {"PS256", "ES256"}, "Swift JWS algs")
        check_swift_cases(material, swift_cases, tally)
        print(f"swift -> python: {len(swift_cases)} tokens checked")

        flow_peer.run(tool, material_path, material, work, tally)
        split_peer.run(tool, material_path, material, work, tally)

    print(f"interop: {tally.passed} passed, {tally.failed} failed")
    return 0 if tally.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
