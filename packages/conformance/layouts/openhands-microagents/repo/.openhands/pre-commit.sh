#!/bin/sh
echo corpus pre-commit
